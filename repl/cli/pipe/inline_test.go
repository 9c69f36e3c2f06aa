package pipe_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/pipe"
	"github.com/locklab/locklab/repl/cli/resp"
)

// TestSplitArgs: Redis's own splitting of an inline command
// (sdssplitargs), case by case.
func TestSplitArgs(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
		bad  bool
	}{
		{line: "SET k v", want: []string{"SET", "k", "v"}},
		{line: "  SET\tk   v  ", want: []string{"SET", "k", "v"}},
		{line: `SET k "a b"`, want: []string{"SET", "k", "a b"}},
		{line: `SET k "a\nb\x41\"c"`, want: []string{"SET", "k", "a\nbA\"c"}},
		{line: `SET k 'it\'s'`, want: []string{"SET", "k", "it's"}},
		{line: `SET k ''`, want: []string{"SET", "k", ""}},
		{line: `SET k a"b`, want: []string{"SET", "k", `a"b`}},
		{line: `SET k "open`, bad: true},
		{line: `SET k "a"b`, bad: true},
		{line: "", want: nil},
	} {
		got, err := pipe.SplitArgs(c.line)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("SplitArgs(%q) = %q, %v", c.line, got, err)
		}
	}
}

// FuzzSplitArgs: what splits, written back as RESP, parses back to the
// same words.
func FuzzSplitArgs(f *testing.F) {
	for _, s := range []string{"SET k v", `SET k "a b"`, `'x\'y' "\x00"`, `"\xzz"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\r\n") {
			return
		}
		args, err := pipe.SplitArgs(line)
		if err != nil || len(args) == 0 {
			return
		}
		r, n, err := resp.Parse(resp.Command(args...))
		if err != nil || r.Kind != resp.Array || len(r.Elems) != len(args) || n == 0 {
			t.Fatalf("%q split as %q, which does not read back: %v", line, args, err)
		}
		for i, e := range r.Elems {
			if e.Str != args[i] {
				t.Fatalf("%q: word %d read back as %q", line, i, e.Str)
			}
		}
	})
}
