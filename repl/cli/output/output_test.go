package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fatih/color"
)

// TestColorOfIsTheName: a session's colour depends on its name only, so
// that main (and alice) look the same in every run, whatever order the
// sessions first write in; no session gets plain blue or yellow.
func TestColorOfIsTheName(t *testing.T) {
	if got := ColorOf("main"); got != color.Bold {
		t.Errorf("main's colour %v, want bold", got)
	}
	for _, name := range []string{"alice", "bob", "slow", "fast", "w1", "w2", "w3"} {
		o1, o2 := New(nil, nil, true, true), New(nil, nil, true, true)
		o2.colorOf("someone-else") // o2 meets another session first
		if a, b := o1.colorOf(name).Sprint("x"), o2.colorOf(name).Sprint("x"); a != b {
			t.Errorf("%s: %q in one run, %q in another", name, a, b)
		}
		if c := ColorOf(name); c == color.FgBlue || c == color.FgYellow {
			t.Errorf("%s gets %v, hard to read on some backgrounds", name, c)
		}
	}
}

// TestGutterShowsNameQuoted: a session named after a value it read (a
// job's argument) that holds control characters gets a gutter with the
// name quoted, as redis-cli quotes a value: the line stays one line, and
// no forged line starts with what the name held.
func TestGutterShowsNameQuoted(t *testing.T) {
	var out bytes.Buffer
	o := New(&out, &out, true, false)
	name := "x\x1b]0;pwned\a\nverdict: ALL CLEAR"
	o.BeginRun(time.Now(), []string{"main", name})
	mainOut, _ := o.Writers("main")
	theirs, _ := o.Writers(name)
	fmt.Fprintln(mainOut, "one")
	fmt.Fprintln(theirs, "two")
	o.Flush()
	got := out.String()
	if want := `"x\x1b]0;pwned\a\nverdict: ALL CLEAR" +`; !strings.Contains(got, want) {
		t.Errorf("no gutter %s in:\n%s", want, got)
	}
	if strings.ContainsAny(got, "\x1b\a") || strings.Contains(got, "\nverdict:") || strings.Count(got, "\n") != 2 {
		t.Errorf("the name reached the terminal as it is:\n%q", got)
	}
}
