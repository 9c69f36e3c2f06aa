package redlockload_test

import (
	"context"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lab/redlockload"
)

var ctx = context.Background()

// up starts n embedded nodes, stopped when the test ends.
func up(t *testing.T, n int) *redlock.Lab {
	t.Helper()
	l := &redlock.Lab{}
	if err := l.Up(context.Background(), n, clock.Real{}, redlock.Embedded); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Down)
	return l
}

// TestLoadNoFaults: without faults every cycle is granted once, and no
// two grants were valid at once.
func TestLoadNoFaults(t *testing.T) {
	l := up(t, 5)
	cfg := redlockload.LoadConfig{Workers: 3, Iterations: 5, TTL: 1e9, Work: 1e6, Key: "lock:l", Seed: 1}
	s, err := redlockload.Run(ctx, l, clock.Real{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sections != 15 || s.Grants != 15 || s.TwoHolders != 0 || !strings.HasPrefix(s.Verdict(), "OK: never two holders at once in 15 grants") {
		t.Fatalf("%s", s.Table())
	}
	t.Log("\n" + s.Table())
}

// TestLoadFaults: a fault at every grant, on three nodes: each grant is
// followed by one clock jump and one crash (the counts say so), and the
// table shows them; whether two holders followed depends on timing, so
// only the figures' consistency is asserted, and the verdict's wording.
func TestLoadFaults(t *testing.T) {
	l := up(t, 3)
	cfg := redlockload.LoadConfig{Workers: 4, Iterations: 5, TTL: 1e9, Work: 5e6, Key: "lock:l", Seed: 7, JumpEvery: 1, CrashEvery: 2}
	s, err := redlockload.Run(ctx, l, clock.Real{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + s.Table())
	if s.Sections != 20 || s.Grants != 20 || s.Jumps != 20 || s.Crashes != 10 || s.Attempts < 20 {
		t.Fatalf("figures do not add up:\n%s", s.Table())
	}
	want := "OK: never two holders at once in 20 grants, under 20 clock jump(s) and 10 crash(es)"
	if s.TwoHolders > 0 {
		want = "FAIL: "
	}
	if !strings.HasPrefix(s.Verdict(), want) || s.Failed() != (s.TwoHolders > 0) {
		t.Errorf("verdict %q, want %q...", s.Verdict(), want)
	}
}
