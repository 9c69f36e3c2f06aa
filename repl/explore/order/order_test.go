package order

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// TestLineReadBack: a schedule line names sessions of any spelling, and
// the shell reads it back as Parse takes it: one word a name, `--` before
// a name that reads as an option.
func TestLineReadBack(t *testing.T) {
	for _, names := range [][]string{
		{"main", "alice", "bob"},
		{"main", "-b", "x y", "-b"},
		{"it's", "a\nb", "x$(FLUSHALL)", "--wait", "--", "é"},
	} {
		line := Line(names)
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil || len(f.Stmts) != 1 {
			t.Fatalf("%q: %v", line, err)
		}
		words, err := expand.Fields(nil, f.Stmts[0].Cmd.(*syntax.CallExpr).Args...)
		if err != nil || words[0] != "schedule" {
			t.Fatalf("%q read back as %q (%v)", line, words, err)
		}
		got, _, err := Parse(words[1:])
		if err != nil || !slices.Equal(got, names) {
			t.Errorf("%q read back as %q (%v); want %q", line, got, err, names)
		}
	}
}

// turn takes name's turn at g for args and ends it with reply: the
// command went and was answered.
func turn(t *testing.T, g *Gate, name string, reply resp.Reply, args ...string) {
	t.Helper()
	release, err := g.Turn(context.Background(), name, args)
	if err != nil {
		t.Fatal(err)
	}
	release(session.Event{Session: name, Args: args, Reply: reply})
}

var (
	null = resp.Reply{Kind: resp.Nil}
	ok   = resp.Reply{Kind: resp.Status, Str: "OK"}
)

// TestPollSpendsNoStep: a poll's repeats (the same command, the same
// answer, one that changed nothing) keep the turn where it is, however
// many; the send whose answer changed is the next step. b, waiting for
// the step after, gets its turn only then.
func TestPollSpendsNoStep(t *testing.T) {
	g := New([]string{"a", "a", "b"}, time.Hour, io.Discard)
	turned := make(chan struct{})
	go func() {
		release, err := g.Turn(context.Background(), "b", []string{"GET", "lock"})
		if err == nil {
			release(session.Event{Reply: ok})
		}
		close(turned)
	}()
	turn(t, g, "a", null, "SET", "lock", "a", "NX")
	for range 5 {
		turn(t, g, "a", null, "SET", "lock", "a", "NX")
		if g.next != 1 {
			t.Fatalf("after a repeat of a's refused SET, step %d's turn; want step 2's", g.next+1)
		}
	}
	select {
	case <-turned:
		t.Fatal("b went while a still polled")
	default:
	}
	turn(t, g, "a", ok, "SET", "lock", "a", "NX")
	<-turned
	if g.next != 3 {
		t.Errorf("after a's SET took the lock and b went: step %d's turn; want the schedule's end", g.next+1)
	}
}

// TestNotAPollSpendsAStep: the same command again spends a step when its
// answer changed or does not say the command changed nothing (SET x 1
// answers OK each time, and writes each time).
func TestNotAPollSpendsAStep(t *testing.T) {
	g := New([]string{"a", "a", "a", "a"}, time.Hour, io.Discard)
	turn(t, g, "a", ok, "SET", "x", "1")
	turn(t, g, "a", ok, "SET", "x", "1")
	turn(t, g, "a", resp.Reply{Kind: resp.Int, Int: 1}, "INCR", "n")
	turn(t, g, "a", resp.Reply{Kind: resp.Int, Int: 2}, "INCR", "n")
	if g.next != 4 {
		t.Errorf("4 commands that are no poll's repeats spent %d steps", g.next)
	}
}

// TestPauseStepIsNotLate: while one session sleeps out a pause step,
// the session whose turn comes next is not late for it, however short
// the wait: the order is kept (nothing said), and its command goes once
// the pause is over.
func TestPauseStepIsNotLate(t *testing.T) {
	var told strings.Builder
	g := New([]string{"alice", PauseStep(300 * time.Millisecond), "bob"}, 50*time.Millisecond, &told)
	ctx := context.Background()
	ok := session.Event{Reply: resp.Reply{Kind: resp.Status, Str: "OK"}}
	release, err := g.Turn(ctx, "alice", []string{"SET", "a", "1"})
	if err != nil {
		t.Fatal(err)
	}
	release(ok)
	go func() { // alice's next command finds the pause, and sleeps it out
		if release, err := g.Turn(ctx, "alice", []string{"SET", "a", "2"}); err == nil {
			release(ok)
		}
	}()
	for !g.inFault() {
		time.Sleep(time.Millisecond)
	}
	release, err = g.Turn(ctx, "bob", []string{"SET", "b", "1"}) // waits out the pause, past its own wait
	if err != nil {
		t.Fatal(err)
	}
	release(ok)
	if told.Len() > 0 {
		t.Errorf("the order was given up during the pause: %q", told.String())
	}
}
