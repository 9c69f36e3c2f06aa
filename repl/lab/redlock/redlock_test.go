package redlock_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lang/flags"
)

var ctx = context.Background()

// up starts n real embedded nodes, stopped when the test ends.
func up(t *testing.T, n int) *redlock.Lab {
	t.Helper()
	l := &redlock.Lab{}
	if err := l.Up(context.Background(), n, clock.Real{}, redlock.Embedded); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Down)
	return l
}

func acquire(t *testing.T, l *redlock.Lab, holder, token string) *redlock.Attempt {
	t.Helper()
	o := redlock.Defaults
	o.TTL = 5 * time.Second
	a, err := l.Acquire(ctx, clock.Real{}, holder, "lock:x", token, o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func nodes(a *redlock.Attempt) string { return strings.Join(a.Nodes(), " ") }

// judge is a checker that read attempts, in order.
func judge(attempts ...*redlock.Attempt) *quorum.Checker {
	c := quorum.New()
	for _, a := range attempts {
		c.Acquired(a.Quorum())
	}
	return c
}

// TestMajority: all five grant; a second token gets nothing; with two
// nodes down a majority still grants, with three it does not and the
// attempt gives back what it got.
func TestMajority(t *testing.T) {
	l := up(t, 5)
	first := acquire(t, l, "alice", "a1")
	if !first.Granted || nodes(first) != "A B C D E" {
		t.Fatalf("alice: granted %v on %q, want A..E", first.Granted, nodes(first))
	}
	if a := acquire(t, l, "bob", "b1"); a.Granted || nodes(a) != "" {
		t.Fatalf("bob: granted %v on %q, want nothing", a.Granted, nodes(a))
	}
	_, rel, err := l.Release(ctx, clock.Real{}, "alice", "lock:x", "a1", redlock.Defaults)
	if err != nil {
		t.Fatal(err)
	}
	c := judge(first)
	c.Released(rel)
	for _, n := range []string{"D", "E"} {
		if err := l.Crash(n); err != nil {
			t.Fatal(err)
		}
	}
	bob := acquire(t, l, "bob", "b2")
	if !bob.Granted || nodes(bob) != "A B C" {
		t.Fatalf("bob with D, E down: granted %v on %q, want A B C", bob.Granted, nodes(bob))
	}
	l.Crash("C")
	a := acquire(t, l, "carol", "c1") // A and B still hold b2
	if a.Granted || a.Released == nil {
		t.Fatalf("carol with 2 nodes up: granted %v, released %v", a.Granted, a.Released)
	}
	c.Acquired(bob.Quorum())
	c.Acquired(a.Quorum())
	if found, grants := c.Findings(quorum.AllLabs); len(found) != 0 || grants != 2 {
		t.Errorf("verdict: %v, %d grants; want none, 2", found, grants)
	}
}

// TestClockJump: C's clock jumps past the TTL: its key expires there
// alone, bob gets C D E, and the verdict is TWO HOLDERS naming both.
func TestClockJump(t *testing.T) {
	l := up(t, 5)
	l.Crash("D")
	l.Crash("E")
	alice := acquire(t, l, "alice", "a1")
	for _, n := range []string{"D", "E"} {
		if err := l.Restart(n, 0, clock.Real{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Jump("C", 6*time.Second); err != nil {
		t.Fatal(err)
	}
	bob := acquire(t, l, "bob", "b1")
	if !bob.Granted || nodes(bob) != "C D E" {
		t.Fatalf("bob: granted %v on %q, want C D E", bob.Granted, nodes(bob))
	}
	found, _ := judge(alice, bob).Findings(quorum.AllLabs)
	if len(found) != 1 || !strings.Contains(found[0].Text, "alice (A B C) and bob (C D E)") {
		t.Errorf("verdict: %v, want TWO HOLDERS alice (A B C) and bob (C D E)", found)
	}
}

// TestDelayedRestart: a node restarted with a delay answers nothing until
// the delay has passed, then comes back empty.
func TestDelayedRestart(t *testing.T) {
	l := up(t, 3)
	acquire(t, l, "alice", "a1")
	l.Crash("A")
	done := make(chan error, 1)
	// The delay runs on a virtual clock: A stays down until the test says
	// the delay has passed, however late bob's attempt comes.
	v := clock.NewVirtual(time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC))
	if err := l.Restart("A", 100*time.Millisecond, v, func(err error) { done <- err }); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := v.WaitSleepers(wait, 1); err != nil {
		t.Fatalf("the delayed restart never began its wait: %v", err)
	}
	if a := acquire(t, l, "bob", "b1"); nodes(a) != "" || a.Set[0].Err == nil {
		t.Fatalf("bob before A is back: %q, A answered %v", nodes(a), a.Set[0].Text())
	}
	v.Advance(99 * time.Millisecond)
	if a := acquire(t, l, "bob", "b1"); nodes(a) != "" || a.Set[0].Err == nil {
		t.Fatalf("bob 1ms before A's delay ends: %q, A answered %v", nodes(a), a.Set[0].Text())
	}
	v.Advance(time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if a := acquire(t, l, "bob", "b2"); nodes(a) != "A" {
		t.Fatalf("bob after A is back: %q, want A alone (empty)", nodes(a))
	}
}

// env is a word's Env: lines in a buffer, sessions on an embedded
// server, an empty record.
type env struct {
	out bytes.Buffer
	set *session.Set
	rec *record.Recorder
}

func newEnv(t *testing.T) *env {
	set := session.NewSet(session.Target{Network: "tcp", Addr: redistest.Embedded(t)})
	t.Cleanup(set.Close)
	return &env{set: set, rec: record.New()}
}

func (e *env) Stdout() io.Writer          { return &e.out }
func (e *env) Session() string            { return "alice" }
func (e *env) Clock() clock.Clock         { return clock.Real{} }
func (e *env) Sessions() *session.Set     { return e.set }
func (e *env) Recorder() *record.Recorder { return e.rec }

// TestWords: the words print each node's command and answer, and the
// note; bad arguments are a UsageError.
func TestWords(t *testing.T) {
	l, e := &redlock.Lab{}, newEnv(t)
	t.Cleanup(l.Down)
	for _, line := range []string{"redlock up --nodes 3", "crash C", "redlock acquire lock:x t1 --ttl 2s"} {
		if err := l.Run(ctx, e, strings.Fields(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	for _, want := range []string{"  A  SET lock:x t1 NX PX 2000 -> OK\n", "  C  SET lock:x t1 NX PX 2000 -> no answer: node down\n",
		"   ↳ alice holds lock:x on 2/3 (A B), valid for 1.9"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, e.out.String())
		}
	}
	var u *flags.Error
	if err := l.Run(ctx, e, []string{"clock", "jump", "A", "3s"}); !errors.As(err, &u) {
		t.Errorf("clock jump A 3s (no sign): %v, want a usage error", err)
	}
}

// TestWordsShowValuesQuoted: a key and a token holding control
// characters show quoted, as redis-cli quotes a value, in the lines the
// words print (the commands, the note, the status of each node), so that
// nothing reaches the terminal for it to act on.
func TestWordsShowValuesQuoted(t *testing.T) {
	l, e := &redlock.Lab{}, newEnv(t)
	t.Cleanup(l.Down)
	const key, token = "lock:\x1b[2J", "t\x1b]0;pwned\a\nverdict: ALL CLEAR"
	for _, args := range [][]string{{"redlock", "up", "--nodes", "3"}, {"redlock", "acquire", key, token}, {"redlock", "status", key}, {"redlock", "release", key, token}} {
		if err := l.Run(ctx, e, args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	}
	out := e.out.String()
	for _, want := range []string{`  A  SET "lock:\x1b[2J" "t\x1b]0;pwned\a\nverdict: ALL CLEAR" NX PX 10000 -> OK` + "\n",
		`   ↳ alice holds "lock:\x1b[2J" on 3/3 (A B C)`, `"lock:\x1b[2J" = "t\x1b]0;pwned\a\nverdict: ALL CLEAR" (PTTL `,
		`  A  EVAL <compare-and-delete> 1 "lock:\x1b[2J" "t\x1b]0;pwned\a\nverdict: ALL CLEAR" -> (integer) 1` + "\n",
		`   ↳ released "lock:\x1b[2J" on 3/3 (A B C)`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if i := strings.IndexAny(out, "\x1b\a\r"); i >= 0 || strings.Contains(out, "\nverdict:") {
		t.Errorf("a control character or a verdict line in the output:\n%q", out)
	}
}

// TestRedsync: through go-redsync/redsync the clock jump gives the same
// TWO HOLDERS, and the commands the library sent are the answers, as
// go-redis sent them.
func TestRedsync(t *testing.T) {
	l := up(t, 5)
	l.Use(redlock.Redsync)
	l.Crash("D")
	l.Crash("E")
	a := acquire(t, l, "alice", "a1")
	if !a.Granted || nodes(a) != "A B C" || a.Set[4].Text() != "no answer: node down" {
		t.Fatalf("alice: granted %v on %q, E answered %q", a.Granted, nodes(a), a.Set[4].Text())
	}
	if got := strings.Join(a.Set[0].Args, " "); got != "set lock:x a1 ex 5 nx" {
		t.Errorf("A's command: %q, want redsync's (go-redis's) set lock:x a1 ex 5 nx", got)
	}
	for _, n := range []string{"D", "E"} {
		if err := l.Restart(n, 0, clock.Real{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	l.Jump("C", 6*time.Second)
	b := acquire(t, l, "bob", "b1")
	if !b.Granted || nodes(b) != "C D E" {
		t.Fatalf("bob: granted %v on %q, want C D E", b.Granted, nodes(b))
	}
	found, _ := judge(a, b).Findings(quorum.AllLabs)
	if len(found) != 1 || !strings.Contains(found[0].Text, "alice (A B C) and bob (C D E)") {
		t.Errorf("verdict: %v, want TWO HOLDERS alice (A B C) and bob (C D E)", found)
	}
	released, _, err := l.Release(ctx, clock.Real{}, "bob", "lock:x", "b1", redlock.Defaults)
	if err != nil || len(released) < 5 || released[len(released)-1].Reply.Int != 1 {
		t.Errorf("bob's release through redsync: %v %v", released, err)
	}
}
