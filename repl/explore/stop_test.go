package explore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
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

// TestStoppedSaysWhatFailed: when a search in which every schedule fails
// the script's check is stopped after a few schedules, what it prints says so, and
// names the shortest failing schedule so far with the command that shows
// it (arguments included). Before, it printed the summary alone, and a
// search that failed everywhere read as all clear.
func TestStoppedSaysWhatFailed(t *testing.T) {
	sc := inline("fails.lab", "DEL log\nw() { RPUSH log \"$1\"; }\nw a & w b & w c & wait\nexpect LLEN log == \"$1\"\n")
	sc.Args = []string{"2 items"}
	r, err := Explore(context.Background(), sc, Options{Raw: true, Bound: Bound{Schedules: 3}}) // as far as a stop came
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.Stopped(&b, sc, "Ctrl-C")
	for _, want := range []string{
		fmt.Sprintf("the script failed (an expectation, or its exit status) in %d of %d schedules\n", r.Schedules, r.Schedules),
		"shortest failing schedule so far: #1, 4 steps (locklab explore --no-reduce --max-schedules 3 --replay 1 fails.lab '2 items' shows it)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("got\n%s\nwant a line %q", b.String(), want)
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
// ($SRANDOM, which comes from the system; $RANDOM is seeded): before,
// such a search counted whatever it ran, a different number of
// schedules each time, and said nothing.
func TestDiverged(t *testing.T) {
	sc := inline("random.lab", "f() { SET \"k$SRANDOM\" 1; SET b 1; }\nf & f & wait\n")
	for _, o := range []Options{{}, {Raw: true}} {
		_, err := Explore(context.Background(), sc, o)
		if !errors.Is(err, errDiverged) || !strings.Contains(err.Error(), "in one run and") {
			t.Errorf("%s: got %v, want the step that differed", o.mode(), err)
		}
	}
}

// TestSamplesStoppedBetweenDraws: a stop that lands between two samples
// ends the draws with no error from any schedule. The count must still
// say it stopped after the samples that ran, not claim all of them.
// Before, SIGTERM there printed "(100000000 random samples, ...)".
func TestSamplesStoppedBetweenDraws(t *testing.T) {
	results := make(chan drawn, 3)
	for i := range 3 {
		results <- drawn{i: i, out: &outcome{choices: nil, cleared: true}}
	}
	close(results)
	r, err := countSamples(Options{Random: 10, Seed: 1}, 10, results, nil, func() error { return context.Canceled }, func() {}, func(*outcome) {})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the search reported as stopped", err)
	}
	if r == nil {
		t.Fatal("no counts came back")
	}
	if want := "stopped after 3 of 10 random samples"; r.Bounded != want {
		t.Fatalf("bounded = %q, want %q", r.Bounded, want)
	}
}

// TestStopLeavesAStuckSchedule: a search told to stop (Ctrl-C, SIGTERM)
// while one of its schedules never ends (a bug that waits on a turn that
// never comes, stood in for here) returns what it counted after
// stopGrace, rather than ignoring the signal: depth first, sampled, and a
// sample stuck in its first draw.
func TestStopLeavesAStuckSchedule(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 50 * time.Millisecond
	sc := script(t, "testdata/two-bidders.lab")
	for _, c := range []struct {
		o     Options
		after int32 // schedules that end before the stuck ones
	}{
		{Options{Raw: true, Workers: 2}, 3},
		{Options{Random: 1000, Seed: 1, Workers: 2}, 3},
		{Options{Random: 1000, Seed: 1, Workers: 2}, 0},
	} {
		stuck := make(chan struct{})
		var ran atomic.Int32
		c.o.runs = func(ctx context.Context, sc Script, p plan) (*outcome, error) {
			if ran.Add(1) > c.after {
				<-stuck               // deaf to ctx
				return nil, ctx.Err() // and then touches nothing
			}
			return runOnce(ctx, sc, p)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { // the stop, once the stuck schedules began
			for ran.Load() <= c.after {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
			cancel()
		}()
		var r *Result
		var err error
		go func() { r, err = Explore(ctx, sc, c.o); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: still running 30 s after the stop", c.o.mode())
		}
		close(stuck)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s, stuck after %d: error %v, want the search stopped", c.o.mode(), c.after, err)
		}
		if c.after > 0 && (r == nil || !strings.Contains(r.Summary(), "stopped")) {
			t.Errorf("%s: got %v; want the schedules counted, said stopped", c.o.mode(), r)
		}
	}
}
