package resp_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
)

// FuzzParse checks that Parse never panics and keeps its promises on any
// input, and that both formats of whatever it parses end in a newline.
// The seed corpus (testdata/fuzz/FuzzParse, one file per RESP type) is
// topped up with every golden .resp file. Run it with
//
//	go test -run='^$' -fuzz=FuzzParse -fuzztime=60s ./repl/cli/resp/
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.resp")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, n, err := resp.Parse(b)
		if err != nil {
			checkParseError(t, b, err)
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("Parse used %d bytes of %d", n, len(b))
		}
		for name, s := range map[string]string{"FormatTTY": resp.FormatTTY(r), "FormatRaw": resp.FormatRaw(r)} {
			if !strings.HasSuffix(s, "\n") {
				t.Fatalf("%s(%v) = %q, with no final newline", name, r, s)
			}
		}
		checkPrefixes(t, b[:n], r)
	})
}

// checkParseError checks that err is ErrIncomplete or a ProtocolError
// that points inside the input.
func checkParseError(t *testing.T, b []byte, err error) {
	var perr *resp.ProtocolError
	switch {
	case errors.Is(err, resp.ErrIncomplete):
	case errors.As(err, &perr):
		if perr.Offset < 0 || perr.Offset > len(b) {
			t.Fatalf("ProtocolError offset %d outside the %d-byte input", perr.Offset, len(b))
		}
	default:
		t.Fatalf("Parse error %v (%T) is neither ErrIncomplete nor a ProtocolError", err, err)
	}
}

// checkPrefixes checks that the reply r, whose bytes are b, parses the
// same on its own, and that every shorter prefix of it is incomplete, as
// it is when a reply arrives over the network in pieces.
func checkPrefixes(t *testing.T, b []byte, r resp.Reply) {
	if r2, n2, err := resp.Parse(b); err != nil || n2 != len(b) || !reflect.DeepEqual(r, r2) {
		t.Fatalf("Parse(its own %d bytes) = %v, %d, %v; want %v", len(b), r2, n2, err, r)
	}
	if len(b) > 512 {
		return // prefixes cost O(n²)
	}
	for i := range b {
		if _, _, err := resp.Parse(b[:i]); !errors.Is(err, resp.ErrIncomplete) {
			t.Fatalf("Parse(first %d of %d bytes %q) = %v, want ErrIncomplete", i, len(b), b, err)
		}
	}
}
