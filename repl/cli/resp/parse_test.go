package resp_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want resp.Reply
		n    int // bytes used; 0 for all of in
	}{
		{"+OK\r\n+QUEUED\r\n", resp.Reply{Kind: resp.Status, Str: "OK"}, 5},
		{"+a\rb\r\n", resp.Reply{Kind: resp.Status, Str: "a\rb"}, 0},
		{"-ERR x\r\n", resp.Reply{Kind: resp.Error, Str: "ERR x"}, 0},
		{"!5\r\nE\r\nrr\r\n", resp.Reply{Kind: resp.Error, Str: "E\r\nrr"}, 0},
		{":-9223372036854775808\r\n", resp.Reply{Kind: resp.Int, Int: -9223372036854775808}, 0},
		{"$0\r\n\r\n", resp.Reply{Kind: resp.Bulk, Str: ""}, 0},
		{"$-1\r\n", resp.Reply{Kind: resp.Nil}, 0},
		{"*-1\r\n", resp.Reply{Kind: resp.Nil}, 0},
		{"_\r\n", resp.Reply{Kind: resp.Nil}, 0},
		{",-inf\r\n", resp.Reply{Kind: resp.Double, Str: "-inf"}, 0},
		{",1.5e+300\r\n", resp.Reply{Kind: resp.Double, Str: "1.5e+300"}, 0},
		{"#f\r\n", resp.Reply{Kind: resp.Bool}, 0},
		{"(-123\r\n", resp.Reply{Kind: resp.BigNum, Str: "-123"}, 0},
		{"=6\r\ntxt:hi\r\n", resp.Reply{Kind: resp.Verbatim, Str: "hi"}, 0},
		{"*0\r\n", resp.Reply{Kind: resp.Array, Elems: []resp.Reply{}}, 0},
		{"%1\r\n:1\r\n#t\r\n", resp.Reply{Kind: resp.Map, Elems: []resp.Reply{{Kind: resp.Int, Int: 1}, {Kind: resp.Bool, Bool: true}}}, 0},
		{"|1\r\n+ttl\r\n:3\r\n~1\r\n|0\r\n:7\r\n", resp.Reply{Kind: resp.Set, Elems: []resp.Reply{{Kind: resp.Int, Int: 7}}}, 0},
	}
	for _, tt := range tests {
		got, n, err := resp.Parse([]byte(tt.in))
		if tt.n == 0 {
			tt.n = len(tt.in)
		}
		if err != nil || n != tt.n || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %v, %d, %v; want %v, %d", tt.in, got, n, err, tt.want, tt.n)
		}
	}
}

func TestParseIncomplete(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", "+", "+OK", "+OK\r", "-", ":", ":-", ":12", "$", "$5", "$5\r\nab",
		"$5\r\nabcde", "$5\r\nabcde\r", "*2\r\n:1\r\n", "%1\r\n+k\r\n", "|1\r\n+a\r\n+b\r\n",
		"=6\r\ntxt", ",3.", ",in", "#", "#t", "#t\r", "_", "(12", ">1\r\n",
		// Lengths far beyond the input must not allocate them.
		"$9223372036854775807\r\nab", "*9223372036854775807\r\n:1\r\n", "%9223372036854775807\r\n+k\r\n",
	} {
		if _, n, err := resp.Parse([]byte(in)); !errors.Is(err, resp.ErrIncomplete) || n != 0 {
			t.Errorf("Parse(%q) = %d, %v; want ErrIncomplete", in, n, err)
		}
	}
}

func TestParseProtocolError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"x", 0, `unknown reply type 'x'`},
		{"*2\r\n:1\r\n?\r\n", 8, `unknown reply type '?'`},
		{":1x", 1, `bad ':' line "1x"`},
		{":01\r\n", 1, `bad integer "01"`},
		{":+1\r\n", 1, `bad integer "+1"`},
		{":+1", 1, `bad ':' line "+1"`},
		{":99999999999999999999\r\n", 1, `bad integer "99999999999999999999"`},
		{"$\r\n", 1, `bad length ""`},
		{"$-2\r\n", 1, `bad length -2`},
		{"*-2\r\n", 1, `bad length -2`},
		{"$3\r\nabcde\r\n", 7, `3-byte string not followed by \r\n`},
		{"$3\r\nabc\rX", 8, `3-byte string not followed by \r\n`},
		{"#x", 1, `bad '#' line "x"`},
		{"#tt\r\n", 1, `bad '#' line "tt"`},
		{"_x\r\n", 1, `bad '_' line "x"`},
		{",abc\r\n", 1, `bad ',' line "abc"`},
		{",1e999\r\n", 1, `bad ',' line "1e999"`},
		{",1_0\r\n", 1, `bad ',' line "1_0"`},
		{"(\r\n", 1, `bad '(' line ""`},
		{"=3\r\nabc\r\n", 1, `verbatim string without a 3-letter format and ':'`},
		{"=5\r\ntxtxx\r\n", 1, `verbatim string without a 3-letter format and ':'`},
		{"|-1\r\n+a\r\n", 0, `null attribute`},
	}
	for _, tt := range tests {
		_, n, err := resp.Parse([]byte(tt.in))
		var perr *resp.ProtocolError
		if !errors.As(err, &perr) || n != 0 || perr.Offset != tt.offset || perr.Msg != tt.msg {
			t.Errorf("Parse(%q) = %d, %v; want a ProtocolError at %d: %s", tt.in, n, err, tt.offset, tt.msg)
		}
	}
}

func TestParseDepth(t *testing.T) {
	t.Parallel()
	nested := func(depth int) []byte {
		return []byte(strings.Repeat("*1\r\n", depth) + ":1\r\n")
	}
	if _, _, err := resp.Parse(nested(resp.MaxDepth)); err != nil {
		t.Errorf("%d nested arrays: %v", resp.MaxDepth, err)
	}
	_, _, err := resp.Parse(nested(resp.MaxDepth + 1))
	var perr *resp.ProtocolError
	if !errors.As(err, &perr) || perr.Offset != 4*resp.MaxDepth {
		t.Errorf("%d nested arrays: %v; want a ProtocolError at byte %d", resp.MaxDepth+1, err, 4*resp.MaxDepth)
	}
	attr := []byte(strings.Repeat("|1\r\n", resp.MaxDepth+1) + ":1\r\n")
	if _, _, err := resp.Parse(attr); !errors.As(err, &perr) {
		t.Errorf("%d nested attributes: %v; want a ProtocolError", resp.MaxDepth+1, err)
	}
}

// TestParseAllocs checks that a declared length does not decide how much
// Parse allocates: the input does.
func TestParseAllocs(t *testing.T) {
	in := []byte("*1000000000\r\n" + strings.Repeat(":1\r\n", 10))
	var err error
	allocs := testing.AllocsPerRun(10, func() { _, _, err = resp.Parse(in) })
	if !errors.Is(err, resp.ErrIncomplete) || allocs > 5 {
		t.Errorf("Parse(%q...) = %v with %v allocations; want ErrIncomplete with a few", in[:13], err, allocs)
	}
}

func TestReplyString(t *testing.T) {
	t.Parallel()
	r, _, err := resp.Parse([]byte("*9\r\n+OK\r\n-ERR x\r\n:1\r\n$2\r\na\n\r\n_\r\n,1.5\r\n" +
		"%2\r\n+k\r\n#t\r\n+j\r\n~1\r\n(7\r\n>1\r\n=5\r\ntxt:v\r\n*0\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `[+OK (error "ERR x") :1 "a\n" nil ,1.5 %{+k: #t, +j: ~{(7}} >[="v"] []]`
	if got := r.String(); got != want {
		t.Errorf("String() = %s\nwant       %s", got, want)
	}
	if !(resp.Reply{Kind: resp.Error}).IsError() || r.IsError() {
		t.Errorf("IsError is wrong")
	}
}
