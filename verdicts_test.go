package main

import (
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSameVerdict is the testscript command `same-verdict EXPLORED RAN`:
// the verdict's kinds of a run (RAN: its output, `stdout` for the last
// command's) are those of the schedule explore reported (EXPLORED: the
// output of `locklab explore`, whose shortest failing schedule it
// replayed). A saved schedule replayed on a server is checked with it.
func cmdSameVerdict(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: same-verdict EXPLORED RAN")
	}
	_, replayed, found := strings.Cut(ts.ReadFile(args[0]), "\nits run, replayed (")
	if !found {
		ts.Fatalf("%s: no replayed run of a failing schedule", args[0])
	}
	want, got := verdictKinds(replayed, "│ verdict: "), verdictKinds(ts.ReadFile(args[1]), "verdict: ")
	if len(want) == 0 {
		ts.Fatalf("%s: its replayed run has no verdict", args[0])
	}
	if same := slices.Equal(want, got); same == neg {
		ts.Fatalf("explore's verdict: %q; the run's: %q", want, got)
	}
}

// verdictKinds are the headlines (DOUBLE BOOKING, OVERLAP ..., the text
// before the first colon) of the verdict lines of out, which start with
// prefix, after a gutter when prefix starts with one; sorted, once each.
func verdictKinds(out, prefix string) []string {
	var kinds []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(prefix, "│") {
			_, line, _ = strings.Cut(line, "│ ")
			line = "│ " + line
		}
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		if kind, _, _ := strings.Cut(rest, ":"); !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}
