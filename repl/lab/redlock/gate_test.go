package redlock_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// turns is a gate that lets every command go at once and keeps each turn
// ("alice@A SET ..."), in order; a turn asked for while another is out
// (not released) is kept as overlapping.
type turns struct {
	mu          sync.Mutex
	taken       []string
	out         bool
	overlapping []string
}

func (g *turns) Turn(_ context.Context, name string, args []string) (func(session.Event), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	step := name + " " + strings.Join(args, " ")
	if g.out {
		g.overlapping = append(g.overlapping, step)
	}
	g.taken, g.out = append(g.taken, step), true
	return func(session.Event) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.out = false
	}, nil
}

// since are the turns taken from the n-th on.
func (g *turns) since(n int) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.taken[n:])
}

// gatedEnv is a word's Env whose sessions take turns at a gate, on a
// virtual clock.
type gatedEnv struct {
	out   bytes.Buffer
	set   *session.Set
	rec   *record.Recorder
	clock *clock.Virtual
}

func (e *gatedEnv) Stdout() io.Writer          { return &e.out }
func (e *gatedEnv) Session() string            { return "alice" }
func (e *gatedEnv) Clock() clock.Clock         { return e.clock }
func (e *gatedEnv) Sessions() *session.Set     { return e.set }
func (e *gatedEnv) Recorder() *record.Recorder { return e.rec }

// TestGated: with a gate (explore's scheduler, a saved schedule's
// order), the nodes are in process and every command to them is a turn
// of the sending session's on its node, one node after another, never
// two at once; a node down takes no turn; crash, restart and clock jump
// are turns on their node; a delayed restart comes back when the lab's
// clock has passed its delay, with no goroutine to wait for it.
func TestGated(t *testing.T) {
	g := &turns{}
	set := session.NewSet(session.Target{Network: "tcp", Addr: "127.0.0.1:0"})
	set.UseGate(g)
	t.Cleanup(set.Close)
	e := &gatedEnv{set: set, rec: record.New(), clock: clock.NewVirtual(time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC))}
	l := &redlock.Lab{}
	t.Cleanup(l.Down)
	run := func(line string) []string {
		t.Helper()
		n := len(g.since(0))
		if err := l.Run(ctx, e, strings.Fields(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return g.since(n)
	}
	for _, c := range []struct {
		line  string
		turns []string
	}{
		{"redlock up --nodes 3", nil},
		{"crash C", []string{"alice@C crash C"}},
		{"redlock acquire lock:x t1 --ttl 10s", []string{"alice@A SET lock:x t1 NX PX 10000", "alice@B SET lock:x t1 NX PX 10000"}},
		{"restart C --delay 4s", []string{"alice@C restart C --delay 4s"}},
		{"clock jump A +1s", []string{"alice@A clock jump A +1s"}},
		{"redlock status", []string{"alice@A GET lock:x", "alice@A PTTL lock:x", "alice@B GET lock:x", "alice@B PTTL lock:x"}},
	} {
		if got := run(c.line); !slices.Equal(got, c.turns) {
			t.Errorf("%s: turns %q, want %q", c.line, got, c.turns)
		}
	}
	for _, want := range []string{"  A  up in process  clock +1s  lock:x = t1 (PTTL 9000)", "  C  down", "alice holds lock:x on 2/3 (A B)"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, e.out.String())
		}
	}
	e.clock.Advance(4 * time.Second)
	if got := run("redlock release lock:x t1"); len(got) != 3 || !strings.HasPrefix(got[2], "alice@C EVAL ") {
		t.Errorf("release 4s later: turns %q, want A, B and C (back, empty)", got)
	}
	if !strings.Contains(e.out.String(), "released lock:x on 2/3 (A B)") {
		t.Errorf("release: A and B released, C back empty:\n%s", e.out.String())
	}
	if len(g.overlapping) > 0 {
		t.Errorf("turns asked for while another was out: %q", g.overlapping)
	}
}
