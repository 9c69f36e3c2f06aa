package redlock_test

import (
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// TestOverlap: alice's lock runs out on every node; bob takes it. A
// command alice sent while valid, or after she released, is no overlap;
// one sent past her validity while bob holds is, named with bob's nodes.
//
// The nodes and both clients are on a virtual clock: alice's TTL runs out
// when the test moves the time past it, however slowly the machine runs.
func TestOverlap(t *testing.T) {
	v := clock.NewVirtual(time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC))
	l := &redlock.Lab{}
	if err := l.Up(ctx, 3, v, redlock.Embedded); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Down)
	o := redlock.Defaults
	o.TTL = 300 * time.Millisecond
	a, err := l.Acquire(ctx, v, "alice", "lock:x", "a1", o)
	if err != nil || !a.Granted {
		t.Fatalf("alice: granted %v, %v", a.Granted, err)
	}
	c := judge(a)
	c.Command("alice", []string{"RPUSH", "l", "early"}, v.Now())
	v.Advance(o.TTL - time.Millisecond)
	if b, err := l.Acquire(ctx, v, "bob", "lock:x", "b0", o); err != nil || b.Granted || nodes(b) != "" {
		t.Fatalf("bob 1ms before alice's TTL ends: granted %v on %q, %v; want nothing", b.Granted, nodes(b), err)
	}
	v.Advance(51 * time.Millisecond)
	o.TTL = 5 * time.Second
	b, err := l.Acquire(ctx, v, "bob", "lock:x", "b1", o)
	if err != nil || !b.Granted || nodes(b) != "A B C" {
		t.Fatalf("bob after alice's TTL: granted %v on %q, %v", b.Granted, nodes(b), err)
	}
	c.Acquired(b.Quorum())
	if got, _ := c.Findings(quorum.AllLabs); len(got) != 0 {
		t.Errorf("a command within alice's validity: %v, want no finding", got)
	}
	v.Advance(time.Millisecond)
	c.Command("alice", []string{"EVAL", "return 1", "0"}, v.Now())
	got, _ := c.Findings(quorum.AllLabs)
	if len(got) != 1 || got[0].Kind != check.Overlap || !strings.HasPrefix(got[0].Text, "OVERLAP on lock:x: alice sent EVAL <script> 0 0.") ||
		!strings.HasSuffix(got[0].Text, "after its validity ended, while bob held the lock (A B C)") {
		t.Fatalf("alice's late command: %v, want one OVERLAP with bob (A B C)", got)
	}
}

// TestPauseWord: a paused session's redlock acquire waits for the pause
// to end; it is then granted as usual.
func TestPauseWord(t *testing.T) {
	l, e := &redlock.Lab{}, newEnv(t)
	t.Cleanup(l.Down)
	for _, line := range []string{"redlock up --nodes 3", "pause alice 200ms"} {
		if err := l.Run(ctx, e, strings.Fields(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	start := time.Now()
	if err := l.Run(ctx, e, strings.Fields("redlock acquire lock:x t1 --ttl 2s")); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Errorf("acquire went out %v after the pause began, want >= 200ms", waited)
	}
	for _, want := range []string{"alice paused for 200ms (a stop-the-world pause", "alice holds lock:x on 3/3"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, e.out.String())
		}
	}
	if err := l.Run(ctx, e, strings.Fields("pause alice soon")); err == nil {
		t.Error("pause alice soon: no usage error")
	}
	if err := l.Run(ctx, e, strings.Fields("pause bobb 1s")); err == nil || !strings.Contains(err.Error(), "no session bobb yet") {
		t.Errorf("pause of a session that does not exist: %v", err)
	}
}
