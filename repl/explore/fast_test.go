package explore

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestFastEqualsPlain: the search that reuses what does not change
// between schedules (the script read once, servers reset in place) and
// the plain one (--plain: a new server and a fresh read of the script
// for every schedule) agree byte for byte, on every shipped script,
// exercise and solution, the tests' scripts and the bench's: each
// schedule's steps, verdict, exit status and transcript, in the same
// order, the summary, the --json document, and the shortest failing
// schedule replayed. Refused scripts are refused the same way.
func TestFastEqualsPlain(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../../scripts/*.lab", "../../scripts/exercises/*.lab", "../../scripts/exercises/solutions/*.lab",
		"testdata/*.lab", "testdata/oracle/*.lab", "../../bench/*.lab"} {
		found, _ := filepath.Glob(glob)
		paths = append(paths, found...)
	}
	if len(paths) < 30 {
		t.Fatalf("only %d scripts found: %v", len(paths), paths)
	}
	bound := Bound{Schedules: 400}
	switch {
	case testing.Short():
		bound = Bound{Schedules: 60}
	case raceOn:
		bound = Bound{Schedules: 150} // the race detector's run: a plain go test compares 400
	}
	for _, path := range paths {
		t.Run(strings.TrimPrefix(path, "../../"), func(t *testing.T) {
			t.Parallel()
			fast := searchRecord(t, path, Options{Bound: bound, JSON: true})
			plain := searchRecord(t, path, Options{Bound: bound, JSON: true, Plain: true})
			if fast != plain {
				t.Errorf("fast and plain searches differ:\n%s", firstDifference(fast, plain))
			}
		})
	}
	for _, path := range []string{"testdata/pause-lock.lab", "../../scripts/locked-booking.lab", "../../scripts/fencing.lab"} {
		t.Run("faults/"+strings.TrimPrefix(path, "../../"), func(t *testing.T) {
			t.Parallel()
			o := Options{Bound: bound, JSON: true, Faults: 2}
			fast := searchRecord(t, path, o)
			o.Plain = true
			if plain := searchRecord(t, path, o); fast != plain {
				t.Errorf("fast and plain searches with faults differ:\n%s", firstDifference(fast, plain))
			}
		})
	}
}

// searchRecord is everything a search of path shows, as text: every
// schedule in the order the search visits it, then the summary, the
// JSON document and the shortest failing schedule's replay.
func searchRecord(t *testing.T, path string, o Options) string {
	sc := script(t, path)
	var b strings.Builder
	r, err := explore(context.Background(), sc, o, func(out *outcome) {
		fmt.Fprintf(&b, "schedule %v cut=%v steps=%q group=%s status=%d\n%s\n", picks(out.choices), out.cut,
			out.steps, out.group(), out.status, out.output)
	})
	if err != nil {
		return b.String() + "error: " + err.Error()
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js, sc); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "summary: %s\njson: %s\n", r.Summary(), js.String())
	s, err := r.Shortest(context.Background(), sc, 0)
	switch {
	case err != nil:
		fmt.Fprintf(&b, "shortest: error %v\n", err)
	case s != nil:
		fmt.Fprintf(&b, "shortest: #%d %v\n%s\n", s.Number, s.Choices, s.Transcript)
	}
	return b.String()
}

// firstDifference shows where two records part: the first differing
// line of each, with its number.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  fast:  %q\n  plain: %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("one ends first: %d lines against %d", len(la), len(lb))
}
