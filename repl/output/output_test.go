package output

import (
	"testing"

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
