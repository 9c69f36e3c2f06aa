package explore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestStopped stops long searches (Ctrl-C) and checks that each comes
// back at once with what it counted, not with the interrupted schedule's
// error.
func TestStopped(t *testing.T) {
	sc := script(t, "../../bench/three-by-five.lab")
	for _, o := range []Options{
		{Raw: true, Bound: Bound{Schedules: 1 << 30, Steps: 1 << 40}},
		{Random: 1 << 30, Seed: 1},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		began := time.Now()
		r, err := Explore(ctx, sc, o)
		cancel()
		if took := time.Since(began); took > 2*time.Second {
			t.Errorf("%s: stopped after %s", o.mode(), took)
		}
		if r == nil || ctx.Err() == nil || err != ctx.Err() {
			t.Fatalf("%s: got %v, %v; want the schedules counted and %v", o.mode(), r, err, ctx.Err())
		}
		if !strings.Contains(r.Summary(), "stopped") || r.Schedules == 0 || r.Complete {
			t.Errorf("%s: %s", o.mode(), r.Summary())
		}
	}
}

// TestStoppedAtOnce stops a search before any schedule ran: the summary
// says so, with no empty list after a colon.
func TestStoppedAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Explore(ctx, script(t, "testdata/two-bidders.lab"), Options{})
	if err == nil || r == nil {
		t.Fatalf("got %v, %v", r, err)
	}
	if got, want := r.Summary(), "explored 0 schedules (stopped, reduced)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestDiverged reports a script whose runs differ for the same choices
// ($RANDOM): before, such a search counted whatever it ran, a different
// number of schedules each time, and said nothing.
func TestDiverged(t *testing.T) {
	sc := inline("random.lab", "f() { SET \"k$RANDOM\" 1; SET b 1; }\nf & f & wait\n")
	for _, o := range []Options{{}, {Raw: true}} {
		_, err := Explore(context.Background(), sc, o)
		if !errors.Is(err, errDiverged) || !strings.Contains(err.Error(), "in one run and") {
			t.Errorf("%s: got %v, want the step that differed", o.mode(), err)
		}
	}
}
