package explore

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// groups is the set of verdict groups a search found.
func groups(r *Result) []string {
	return slices.Sorted(maps.Keys(r.Groups))
}

// TestReducedAgreesWithRaw: on every shipped script explore runs (and
// the test scripts), the reduced search finds the same verdict groups as
// the raw one, in fewer or as many schedules. Where a search is bounded
// (a raw one under -race or -short), the groups of what each search
// covered are compared.
func TestReducedAgreesWithRaw(t *testing.T) {
	paths, _ := filepath.Glob("../../scripts/*.lab")
	more, _ := filepath.Glob("testdata/*.lab")
	bound := Bound{}
	switch {
	case testing.Short():
		bound.Steps = 3000
	case raceOn:
		bound.Steps = 10000 // a third of the default 30,000, which a plain go test runs: -race is slow, and go test stops a package at 10 min
	}
	for _, path := range append(paths, more...) {
		name := strings.TrimSuffix(filepath.Base(path), ".lab")
		if shipped[name].refused != "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			sc := script(t, path)
			raw, err := Explore(context.Background(), sc, Options{Raw: true, Bound: bound})
			if err != nil {
				t.Fatal(err)
			}
			reduced, err := Explore(context.Background(), sc, Options{Bound: bound})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(groups(raw), groups(reduced)) || reduced.Complete && reduced.Schedules > raw.Schedules {
				t.Errorf("raw: %s\nreduced: %s", raw.Summary(), reduced.Summary())
			}
		})
	}
}

// TestWorkersSameResult: one worker or four, the same schedules are
// counted, in the same order, bounded or not.
func TestWorkersSameResult(t *testing.T) {
	for _, c := range []struct {
		path string
		opts Options
	}{
		{"testdata/three-bidders.lab", Options{Raw: true}},
		{"../../bench/all-conflicting.lab", Options{Bound: Bound{Schedules: 40}}},
		{"../../scripts/watchdog.lab", Options{Raw: true, Bound: Bound{Steps: 2000}}},
	} {
		var got [2]string
		for i, workers := range []int{1, 4} {
			c.opts.Workers = workers
			var order []string
			r, err := explore(context.Background(), script(t, c.path), c.opts, func(o *outcome) {
				order = append(order, fmt.Sprint(o.picks, o.bad, len(o.steps)))
			})
			if err != nil {
				t.Fatal(err)
			}
			got[i] = r.Summary() + "\n" + strings.Join(order, "\n")
		}
		if got[0] != got[1] {
			t.Errorf("%s: one worker:\n%s\nfour:\n%s", c.path, got[0], got[1])
		}
	}
}

// TestRandomSeed: the same seed samples the same schedules, byte for
// byte in the report; a search by samples never says complete.
func TestRandomSeed(t *testing.T) {
	sc := script(t, "testdata/three-bidders.lab")
	var reports [2]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, Options{Random: 30, Seed: 7, Workers: 1 + 2*i})
		if err != nil {
			t.Fatal(err)
		}
		if r.Complete || !strings.Contains(r.Summary(), "(30 random samples, seed 7, PCT depth 3, raw)") {
			t.Errorf("summary: %s", r.Summary())
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	if reports[0] != reports[1] {
		t.Errorf("seed 7 twice:\n%s\n---\n%s", reports[0], reports[1])
	}
}
