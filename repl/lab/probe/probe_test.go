package probe_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/probe"
)

// lab is a run's sessions with the probe installed, whose events feed an
// annotator as the shell feeds it.
type lab struct {
	*session.Set
	mu     sync.Mutex
	ann    *check.Annotator
	events []session.Event
	notes  []string // "SESSION TEXT"
}

func newLab(t *testing.T, addr string) *lab {
	t.Helper()
	l := &lab{Set: session.NewSet(session.Target{Network: "tcp", Addr: addr}), ann: check.New(time.Now())}
	t.Cleanup(l.Close)
	l.Use(probe.New().Middleware())
	l.Observe(func(e session.Event) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ann.Sending(e.Session, e.Args)
		l.events = append(l.events, e)
		for _, n := range l.ann.Observe(probe.CheckEvent(e)) {
			l.notes = append(l.notes, n.Session+" "+n.Text)
		}
	})
	return l
}

// do sends line in session name and returns its reply.
func (l *lab) do(t *testing.T, name, line string) resp.Reply {
	t.Helper()
	e, err := l.Get(name).Do(context.Background(), strings.Fields(line))
	if err != nil {
		t.Fatalf("%s %s: %v", name, line, err)
	}
	return e.Reply
}

// last is the last event observed, and the notes since the last call.
func (l *lab) last() (session.Event, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	notes := l.notes
	l.notes = nil
	return l.events[len(l.events)-1], notes
}

// expectNotes fails the test unless the notes since the last call start
// with the given texts, one each.
func (l *lab) expectNotes(t *testing.T, what string, want ...string) {
	t.Helper()
	_, got := l.last()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Errorf("%s: the annotator said %q; want %q", what, got, want)
	}
}

// TestProbeNotes: what the annotator is told of a lock comes from the
// server, read in the same transaction as the command: who holds it (a
// failed SET NX, in a session or a one-shot redis-cli call), whose lock a
// DEL removed, for lock:... keys and for keys acquired with SET NX alike.
func TestProbeNotes(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			l := newLab(t, addr)
			l.do(t, "alice", "SET lock:room tok-a NX PX 2000")
			l.expectNotes(t, "alice's SET NX", "alice lock acquired: alice holds lock:room for 2.00s")
			l.OneShot(context.Background(), l.Target, "bob", strings.Fields("SET lock:room tok-b NX PX 2000"))
			l.expectNotes(t, "bob's SET NX", "bob lock not acquired: held by alice (tok-a), ")
			l.do(t, "bob", "DEL lock:room")
			l.expectNotes(t, "bob's DEL", "bob WRONG-OWNER DEL: bob removed alice's lock (tok-a) on lock:room")
			l.do(t, "carol", "SET mine tok-c NX")
			l.do(t, "dave", "DEL mine")
			l.expectNotes(t, "dave's DEL of a key carol acquired with NX", "carol lock acquired: carol holds mine", "dave WRONG-OWNER DEL: dave removed carol's lock (tok-c) on mine")
		})
	}
}

// TestProbeOnVirtualTime: on an embedded server following a virtual
// clock, the time a lock has left is exact.
func TestProbeOnVirtualTime(t *testing.T) {
	v := clock.NewVirtual(time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC))
	e, err := server.StartEmbeddedClock(v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	l := newLab(t, e.Addr())
	l.do(t, "alice", "SET lock:room tok-a NX PX 2000")
	v.Advance(300 * time.Millisecond)
	l.do(t, "bob", "SET lock:room tok-b NX PX 2000")
	l.expectNotes(t, "bob's SET NX", "alice lock acquired: alice holds lock:room for 2.00s", "bob lock not acquired: held by alice (tok-a), 1.70s left")
}

// TestProbeLeavesTransactionsAlone: inside MULTI or WATCH a command on a
// lock goes out as typed (a probe's MULTI would nest or abort the EXEC),
// yet a lock acquired there is probed afterwards; the EXEC reads the keys
// its queued commands named just after it (Loose: not in the same step).
func TestProbeLeavesTransactionsAlone(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			l := newLab(t, addr)
			for _, step := range []struct{ line, reply string }{
				{"MULTI", "OK"}, {"SET mine tok NX", "QUEUED"}, {"DEL lock:x", "QUEUED"}, {"EXEC", "1) OK\n2) (integer) 0"},
				{"WATCH mine", "OK"}, {"DEL mine", "(integer) 1"}, {"UNWATCH", "OK"},
			} {
				r := l.do(t, "alice", step.line)
				e, _ := l.last()
				got := strings.TrimSpace(resp.Format(e.Args, r, true))
				if step.line == "EXEC" {
					st, _ := e.Probe.(probe.States)
					after := fmt.Sprint(st.After)
					if got != step.reply || !st.Loose || len(st.Before) > 0 || after != "[{mine true tok -1ms false 0} {lock:x false  -2ms false 0}]" {
						t.Errorf("EXEC: %q, probe %+v; want %q, the queued keys read after it", got, e.Probe, step.reply)
					}
					continue
				}
				if got != step.reply || e.Probe != nil {
					t.Errorf("%s: %q, probe %v; want %q, not probed", step.line, got, e.Probe, step.reply)
				}
			}
			l.do(t, "alice", "SET mine tok NX")
			l.do(t, "alice", "DEL mine")
			if e, _ := l.last(); e.Probe == nil {
				t.Error("DEL mine, of a key acquired with NX inside MULTI, was not probed")
			}
		})
	}
}

// TestProbeBadArguments: a probed command with bad arguments answers its
// own error, not the probe's EXECABORT (miniredis refuses it while
// queueing, so the command goes again alone; Redis runs the transaction
// and answers the error in it).
func TestProbeBadArguments(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			l := newLab(t, addr)
			r := l.do(t, "alice", "SET lock:x tok NX PX abc")
			if !r.IsError() || !strings.Contains(r.Str, "not an integer") {
				t.Errorf("SET lock:x tok NX PX abc answered %v; want Redis's own error", r)
			}
			if r := l.do(t, "alice", "SET lock:x tok NX PX 100"); r.Str != "OK" {
				t.Errorf("the next SET NX answered %v; want OK", r)
			}
		})
	}
}
