package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONAsOneDocument: --json keeps the failing schedules in a compact
// log and writes them one at a time; the bytes are those of the whole
// document encoded at once, from the schedules as the search showed them:
// polls (fencing), bugs, failed expectations, --property, a bounded
// search, a random one, and one where nothing failed.
func TestJSONAsOneDocument(t *testing.T) {
	for _, c := range []struct {
		path string
		o    Options
	}{
		{"../../scripts/fencing.lab", Options{Raw: true}},
		{"testdata/three-bidders.lab", Options{Raw: true}},
		{"testdata/three-bidders.lab", Options{Property: "expect"}},
		{"../../bench/all-conflicting.lab", Options{Bound: Bound{Schedules: 40}}},
		{"../../scripts/ttl-overlap.lab", Options{Random: 30, Seed: 3}},
		{"../../scripts/locked-booking.lab", Options{}},
	} {
		c.o.JSON = true
		sc := script(t, c.path)
		var failing []jsonSchedule
		r, err := explore(context.Background(), sc, c.o, func(o *outcome) {
			if !o.cut && o.breaks(c.o.Property) {
				failing = append(failing, jsonFailing(o))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		whole := r.jsonCounts(sc)
		if failing != nil {
			whole.Failing = failing
		}
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(whole); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&got, sc); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s %+v: %d failing; --json wrote\n%s\nthe whole document encoded at once is\n%s", c.path, c.o, len(failing), firstLines(got.String()), firstLines(want.String()))
		}
	}
}

// firstLines is the start of a long text.
func firstLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(len(lines), 40)], "")
}
