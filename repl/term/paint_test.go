package term_test

import (
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/term"
)

// TestPaint checks the colours of a typed line, written back as tags:
// <y> Redis command, <c> lab word, <r> unknown, <m> session, <g> string,
// <b> number, </> reset. The characters must stay the line's own.
func TestPaint(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`SET k "a b" NX PX 5000`, `<y>SET</> k <g>"a b"</> NX PX <b>5000</>`},
		{`set k v`, `<y>set</> k v`},
		{`book alice --work 300ms`, `<c>book</> alice --work 300ms`},
		{`@alice SET lock:a t NX`, `<m>@alice</> <y>SET</> lock:a t NX`},
		{`3 PING`, `<b>3</> <y>PING</>`},
		{`SETT k`, `<r>SETT</> k`},
		{`SE`, `SE`}, // still being typed: not red yet
		{`echo 'x; y'; GET k & PING`, `<c>echo</> <g>'x; y'</>; <y>GET</> k & <y>PING</>`},
		{`x=1 GET k`, `x=1 <y>GET</> k`},
		{`$cmd k`, `$cmd k`},
		{`SET k "open`, `<y>SET</> k <g>"open</>`},
		{`EVAL "return \"x\"" 0`, `<y>EVAL</> <g>"return \"x\""</> <b>0</>`},
	} {
		got := string(term.Paint([]rune(c.line)))
		if tags := asTags(got); tags != c.want {
			t.Errorf("Paint(%q) = %s, want %s", c.line, tags, c.want)
		}
		if plain := stripSGR(got); plain != c.line {
			t.Errorf("Paint(%q) shows %q: the characters changed", c.line, plain)
		}
	}
}

func asTags(s string) string {
	return strings.NewReplacer("\x1b[33m", "<y>", "\x1b[36m", "<c>", "\x1b[31m", "<r>", "\x1b[35m", "<m>",
		"\x1b[32m", "<g>", "\x1b[34m", "<b>", "\x1b[0m", "</>").Replace(s)
}

func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
