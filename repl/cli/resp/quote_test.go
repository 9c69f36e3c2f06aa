package resp_test

import (
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/locklab/locklab/repl/cli/resp"
)

func TestQuoteText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", `""`},
		{"\"\\\n\r\t\a\b", `"\"\\\n\r\t\a\b"`},
		{"\x00\x1b\x7f", `"\x00\x1b\x7f"`},
		{"你好 naïve ✓", `"你好 naïve ✓"`},
		{"\xff\xe4\xbd", `"\xff\xe4\xbd"`},         // invalid UTF-8, byte by byte
		{"a\u009bb", `"a\xc2\x9bb"`},               // a C1 control: CSI on some terminals
		{"\u202egnp.exe", `"\xe2\x80\xaegnp.exe"`}, // a right-to-left override
		{"\ufffd", `"` + "\ufffd" + `"`},           // U+FFFD itself is printable
	}
	for _, tt := range tests {
		if got := resp.QuoteText(tt.in); got != tt.want {
			t.Errorf("QuoteText(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestPrintable(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"token-bob", "token-bob"},
		{`a "quoted" \ value`, `a "quoted" \ value`},
		{"你好 naïve", "你好 naïve"},
		{"\x1b]0;pwned\x07", `"\x1b]0;pwned\a"`},
		{"\x1b[2J", `"\x1b[2J"`},
		{"x\r\nverdict: ALL CLEAR", `"x\r\nverdict: ALL CLEAR"`},
		{"tab\there", `"tab\there"`},
		{"\xff", `"\xff"`},
	}
	for _, tt := range tests {
		if got := resp.Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzPrintable checks Printable's promises on any string: what it
// returns holds only printable characters, is s itself when s holds only
// those, shows again as itself, and, when quoted, reads back as s (its
// escapes are all Go escapes too).
//
//	go test -run='^$' -fuzz=FuzzPrintable -fuzztime=30s ./repl/cli/resp/
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "token", "\x1b]0;pwned\x07", "x\nverdict: ALL CLEAR", "你好\u009b\xff", `"\x07"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := resp.Printable(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, got)
		}
		for i, r := range got {
			if !strconv.IsPrint(r) {
				t.Fatalf("Printable(%q) = %q: %q at %d is not printable", s, got, r, i)
			}
		}
		if again := resp.Printable(got); again != got {
			t.Fatalf("Printable(%q) = %q, shown again %q", s, got, again)
		}
		if got == s {
			return
		}
		if back, err := strconv.Unquote(got); err != nil || back != s {
			t.Fatalf("Printable(%q) = %q, which reads back as %q (%v)", s, got, back, err)
		}
	})
}
