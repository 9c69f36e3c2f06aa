package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/explore/sched"
)

// TestWalkFlag: --walk N names the random-walk search, with --seed; it
// goes alone, once, and N counts samples.
func TestWalkFlag(t *testing.T) {
	c, err := ParseCommand([]string{"two-bidders.lab", "--walk", "30", "--seed", "4"})
	if err != nil || c.Strategy != (sched.RandomWalk{N: 30}) || c.Seed != 4 {
		t.Errorf("--walk 30 --seed 4: %+v, %v", c.Options, err)
	}
	if _, err := ParseCommand([]string{"--walk", "3", "--walk", "5", "x.lab"}); err == nil || !strings.HasPrefix(err.Error(), "--walk given twice: give it once (usage: explore ") {
		t.Errorf("--walk 3 --walk 5: %v, want it refused as every flag given twice", err)
	}
	for _, args := range [][]string{{"--walk", "0"}, {"--walk", "x"}, {"--walk", "5", "--no-reduce"}, {"--walk", "5", "--random", "5"}, {"--preemptions", "1", "--walk", "5"}} {
		if _, err := ParseCommand(append(args, "x.lab")); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestWalk: the random-walk search samples the two bidders' schedules,
// counts the distinct ones, and says its seed; the same seed gives the
// same report, whose replay command names the search.
func TestWalk(t *testing.T) {
	sc := script(t, "testdata/two-bidders.lab")
	var reports [2]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, Options{Strategy: sched.RandomWalk{N: 100}, Seed: 3, Workers: 1 + i})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.Summary(), "explored 6 schedules (100 random samples, seed 3, random walk, raw): 4 DOUBLE BOOKING, 2 all clear"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	if reports[0] != reports[1] || !strings.Contains(reports[0], "(locklab explore --walk 100 --seed 3 --replay ") {
		t.Errorf("seed 3 twice:\n%s\n---\n%s", reports[0], reports[1])
	}
}
