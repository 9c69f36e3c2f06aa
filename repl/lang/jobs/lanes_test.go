package jobs

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestSessionFile: only the lanes a job's rewrite writes are lanes; the
// paths a script could write, /dev/locklab/NAME before, with or without
// a NUL byte, are not.
func TestSessionFile(t *testing.T) {
	for _, tt := range []struct {
		path, name string
		stderr, ok bool
	}{
		{laneDevice() + "bob", "bob", false, true},
		{laneDevice() + "bob/err", "bob", true, true},
		{laneDevice(), "job", false, true}, // `book $w &` with $w empty
		{"/dev/locklab/bob", "", false, false},
		{"/dev/locklab/bob/err", "", false, false},
		{"\x00locklab/bob", "", false, false},
		{"\x00locklab-/bob", "", false, false},
	} {
		name, stderr, ok := SessionFile(tt.path)
		if name != tt.name || stderr != tt.stderr || ok != tt.ok {
			t.Errorf("SessionFile(%q) = %q, %v, %v; want %q, %v, %v", tt.path, name, stderr, ok, tt.name, tt.stderr, tt.ok)
		}
	}
}

// TestJobWritesItsLane: a job's rewrite sends its output to its lane,
// which SessionFile reads back as its session.
func TestJobWritesItsLane(t *testing.T) {
	f, err := syntax.NewParser().Parse(strings.NewReader("book bob &"), "")
	if err != nil {
		t.Fatal(err)
	}
	New(0).Name(f)
	var lanes []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if rd, ok := n.(*syntax.Redirect); ok {
			lanes = append(lanes, literal(rd.Word))
		}
		return true
	})
	want := map[string]bool{laneDevice() + "bob": false, laneDevice() + "bob/err": true}
	for _, lane := range lanes {
		if stderr, ok := want[lane]; ok {
			if name, isErr, isLane := SessionFile(lane); name != "bob" || isErr != stderr || !isLane {
				t.Errorf("SessionFile(%q) = %q, %v, %v", lane, name, isErr, isLane)
			}
			delete(want, lane)
		}
	}
	if len(want) > 0 {
		t.Errorf("the job's redirections %q lack %v", lanes, want)
	}
}

// literal is a word's value, quotes taken off (a rewrite's words are
// quoted literals).
func literal(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			b.WriteString(literal(&syntax.Word{Parts: p.Parts}))
		}
	}
	return b.String()
}
