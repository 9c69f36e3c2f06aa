package shellquote

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// readBack is what a shell makes of line's words: each one's value, or
// ok false when line is not one plain command of literal words (a
// command substitution, a second command, a redirection).
func readBack(t testing.TB, line string) (words []string, ok bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Stmts[0].Redirs) > 0 || f.Stmts[0].Background {
		return nil, false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 {
		return nil, false
	}
	plain := true
	syntax.Walk(call, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ProcSubst:
			plain = false
		}
		return plain
	})
	if !plain {
		return nil, false
	}
	words, err = expand.Fields(&expand.Config{}, call.Args...)
	if err != nil {
		t.Fatal(err)
	}
	return words, true
}

// TestLine: a line of quoted words reads back as those words, and no
// more: no command substitution, no second command, no redirection.
func TestLine(t *testing.T) {
	words := []string{"saved.lab", "a b", "x$(FLUSHALL)", "a;FLUSHALL", "a>/tmp/x", "it's", "-x", "", "\xff$(id)", "tab\there"}
	got, ok := readBack(t, Line(words...))
	if !ok || strings.Join(got, "|") != strings.Join(words, "|") {
		t.Errorf("%s read back as %q (plain: %v)", Line(words...), got, ok)
	}
	if Line("ann", "scripts/x.lab") != "ann scripts/x.lab" {
		t.Errorf("plain words were quoted: %s", Line("ann", "scripts/x.lab"))
	}
}

// TestOneLine: line breaks and control characters come out escaped.
func TestOneLine(t *testing.T) {
	if got := OneLine("a\nFLUSHALL\r\x1b[2J é"); got != `a\nFLUSHALL\r\x1b[2J é` {
		t.Errorf("got %q", got)
	}
}

// FuzzWord: any value, quoted, reads back as itself, as one word.
func FuzzWord(f *testing.F) {
	for _, s := range []string{"", "a b", "x$(FLUSHALL)", "'", `\`, "\n", "\xff'$(x)'", "!!", "*", "~root", "{a,b}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			t.Skip() // no shell word holds a NUL
		}
		got, ok := readBack(t, "cmd "+Word(s))
		if !ok || len(got) != 2 || got[1] != s {
			t.Errorf("%q quoted as %s read back as %q (plain: %v)", s, Word(s), got, ok)
		}
	})
}

// TestLabWord: a word quoted for the lab reads back as itself with the
// lab's own parser (POSIX), which does not know bash's $'...'.
func TestLabWord(t *testing.T) {
	for _, w := range []string{"tok", "a b", "a\nb", "x\x1b]0;t\a", "it's", "", "$(id)"} {
		q := LabWord(w)
		f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader("echo "+q), "")
		if err != nil {
			t.Fatalf("LabWord(%q) = %s: %v", w, q, err)
		}
		got, err := expand.Literal(&expand.Config{}, f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1])
		if err != nil || got != w {
			t.Errorf("LabWord(%q) = %s reads back as %q (%v)", w, q, got, err)
		}
	}
}
