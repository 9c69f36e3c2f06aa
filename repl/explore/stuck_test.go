package explore

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/explore/sched"
)

func inline(name, text string) Script {
	return Script{Name: name, Text: []byte(text), Dir: "../.."}
}

// TestStuckBlocking: a command the server never answers (BLPOP on an
// empty list, timeout 0) stops the schedule at its step, named, as
// waiting on the wall clock.
func TestStuckBlocking(t *testing.T) {
	defer func(d time.Duration) { sched.StallAfter = d }(sched.StallAfter)
	sched.StallAfter = 200 * time.Millisecond
	began := time.Now()
	_, err := Explore(context.Background(), inline("blocks.lab", "SET a 1\nBLPOP q 0\nGET a\n"), Options{})
	var stuck *sched.StuckError
	if !errors.As(err, &stuck) {
		t.Fatalf("want a sched.StuckError, got %v", err)
	}
	// SET is step 1; BLPOP, step 2, is the one that never returns.
	if stuck.Step != 2 || stuck.What != "main BLPOP q 0" || !strings.HasPrefix(stuck.Why, "it waits on the wall clock") {
		t.Errorf("got %q", err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("took %v to give up", took)
	}
}

// TestStuckPolling: a busy poll for a key nothing will set stops at once
// (no wall-clock wait): after SET (1) and the first EXISTS (2), the next
// EXISTS could only read the same.
func TestStuckPolling(t *testing.T) {
	sc := inline("polls.lab", "SET a 1\nuntil [ \"$(EXISTS lock)\" = 1 ]; do :; done\n")
	_, err := Explore(context.Background(), sc, Options{})
	var stuck *sched.StuckError
	if !errors.As(err, &stuck) || stuck.Step != 3 || stuck.What != "main EXISTS lock" || !strings.Contains(stuck.Why, "polls") {
		t.Errorf("got %v", err)
	}
}

// TestPollThenSleep: a poll that a sleeping job will satisfy goes on once
// virtual time reaches the job's wake-up, in every schedule.
func TestPollThenSleep(t *testing.T) {
	sc := inline("waits.lab", "DEL lock\n{ sleep 1; SET lock x; } &\nuntil [ \"$(EXISTS lock)\" = 1 ]; do :; done\nwait\nexpect EXISTS lock == 1\n")
	r, err := Explore(context.Background(), sc, Options{})
	if err != nil || !r.Complete || r.ExpectFailed != 0 {
		t.Fatalf("%v: %+v", err, r)
	}
}

// TestLoopBounded: a loop that never ends, stepping on, is stopped at
// sched.MaxSteps.
func TestLoopBounded(t *testing.T) {
	_, err := Explore(context.Background(), inline("loop.lab", "while :; do INCR n; done\n"), Options{})
	var stuck *sched.StuckError
	if !errors.As(err, &stuck) || stuck.Step != sched.MaxSteps {
		t.Errorf("got %v", err)
	}
}

// TestSleepLoopBounded: a loop that only sleeps, with no command, is
// stopped too; before, virtual time moved on for ever.
func TestSleepLoopBounded(t *testing.T) {
	for _, text := range []string{"while :; do sleep 1; done\n", "f() { while :; do sleep 1; done; }\nf &\nSET a 1\n"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := Explore(ctx, inline("sleeps.lab", text), Options{})
		cancel()
		var stuck *sched.StuckError
		if !errors.As(err, &stuck) || !strings.Contains(stuck.Why, "slept 5000 times") {
			t.Errorf("%q: got %v", text, err)
		}
	}
}

// TestRefused: scripts that need real servers, or run load, are refused
// before anything runs, naming the line and the word (crash: a
// cluster's primary; a Redlock node's crash explores).
func TestRefused(t *testing.T) {
	for word, line := range map[string]int{"cluster": 2, "link": 3, "crash": 2, "promote": 2, "load": 4, "replication": 2} {
		arg := map[string]string{"crash": "primary"}[word]
		text := "DEL k\n" + strings.Repeat("# a comment\n", line-2) + word + " " + cmp.Or(arg, "up") + "\n"
		_, err := Explore(context.Background(), inline(word+".lab", text), Options{})
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Word != word || int(refused.Pos.Line()) != line {
			t.Errorf("%s: got %v", word, err)
		}
	}
	for _, text := range []string{"echo cluster up\n", "SET k SUBSCRIBE\necho MONITOR\n"} {
		if _, err := Explore(context.Background(), inline("ok.lab", text), Options{}); err != nil {
			t.Errorf("%q: a word as an argument is not the command: %v", text, err)
		}
	}
	// A stream no schedule ends: before, a SUBSCRIBE in a job stopped the
	// search after 3 s with "stuck at step 0: local work between steps".
	for _, line := range []string{"@sub subscribe ch &", "PSUBSCRIBE 'c*' &", "MONITOR", `"SUBSCRIBE" ch &`, "3 SUBSCRIBE ch &"} {
		_, err := Explore(context.Background(), inline("sub.lab", "SET a 1\n"+line+"\nPUBLISH ch x\n"), Options{})
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Pos.Line() != 2 || !strings.Contains(refused.Why, "for ever") {
			t.Errorf("%s: got %v", line, err)
		}
	}
}

// TestSyntaxError names the script's line and column once, without a
// second "locklab:" inside the caller's.
func TestSyntaxError(t *testing.T) {
	_, err := Explore(context.Background(), inline("bad.lab", "SET a 1\nif [ x = y ]; then\n  GET a\n"), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "bad.lab:2:1: ") {
		t.Errorf("got %v", err)
	}
}
