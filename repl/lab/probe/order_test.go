package probe

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
)

var t0 = time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)

// us is t0 plus n microseconds: a server time, or the time a reply came.
func us(n int) time.Time { return t0.Add(time.Duration(n) * time.Microsecond) }

var (
	ok    = resp.Reply{Kind: resp.Status, Str: "OK"}
	nilR  = resp.Reply{Kind: resp.Nil}
	int1  = resp.Reply{Kind: resp.Int, Int: 1}
	heldA = []check.KeyState{{Key: "lock:x", Exists: true, Value: "tok-a"}}
)

// answer answers f as the server would have: line ran at server time
// served, and its reply came at end.
func answer(f *Flight, served, end int, line string, reply resp.Reply, after []check.KeyState) {
	f.answer(us(end), strings.Fields(line), reply, States{After: after, Served: us(served)})
}

func ready(f *Flight) bool {
	f.o.mu.Lock()
	defer f.o.mu.Unlock()
	return f.ready()
}

// expectReady fails the test unless each flight's event may (or may not)
// be taken now, as want says.
func expectReady(t *testing.T, when string, want map[string]bool, flights map[string]*Flight) {
	t.Helper()
	for name, w := range want {
		if got := ready(flights[name]); got != w {
			t.Errorf("%s: %s's event may be taken: %v; want %v", when, name, got, w)
		}
	}
}

// race is alice and bob racing for lock:x: bob's failed SET NX, sent to
// bobServer, reaches locklab before alice's winning one, which ran first
// (its TIME is earlier). It checks whether bob's event waits for alice's
// (wait), and that alice's does not wait for bob's.
func race(t *testing.T, bobServer string, wait bool) map[string]*Flight {
	t.Helper()
	o := newOrder()
	f := map[string]*Flight{"alice": o.send("alice", "tcp:a"), "bob": o.send("bob", bobServer)}
	answer(f["bob"], 20, 100, "SET lock:x tok-b NX PX 2000", nilR, heldA)
	expectReady(t, "bob answered, alice not yet", map[string]bool{"bob": !wait}, f)
	answer(f["alice"], 10, 130, "SET lock:x tok-a NX PX 2000", ok, heldA)
	expectReady(t, "both answered", map[string]bool{"alice": true, "bob": !wait}, f)
	return f
}

// TestOrderOutOfOrderReplies: on one server, bob's event waits until
// alice's is taken; and alice's SET is known to have run by the time
// bob's reply came, which came first.
func TestOrderOutOfOrderReplies(t *testing.T) {
	f := race(t, "tcp:a", true)
	if ranBy := f["alice"].Take(); !ranBy.Equal(us(100)) {
		t.Errorf("alice's SET ran by %v; want %v, when bob's reply came (the server ran bob's after)", ranBy, us(100))
	}
	expectReady(t, "alice's taken", map[string]bool{"bob": true}, f)
	if ranBy := f["bob"].Take(); !ranBy.Equal(us(100)) {
		t.Errorf("bob's SET ran by %v; want its own reply, %v", ranBy, us(100))
	}
}

// TestOrderTwoServers: the clocks of two servers are not compared: a
// command on another server is not waited for, whatever its TIME.
func TestOrderTwoServers(t *testing.T) { race(t, "tcp:b", false) }

// TestOrderReleases: what a waiting event waits for ends. A command with
// no reply (a lost connection, Ctrl-C) releases it; so does a reply the
// server ran later, a session that moved on without its reply being
// taken; a command sent after the reply came is never waited for.
func TestOrderReleases(t *testing.T) {
	o := newOrder()
	f := map[string]*Flight{"alice": o.send("alice", "tcp:a"), "bob": o.send("bob", "tcp:a"), "carol": o.send("carol", "tcp:a")}
	answer(f["bob"], 20, 100, "DEL lock:x", int1, nil)
	expectReady(t, "alice and carol in flight", map[string]bool{"bob": false}, f)
	f["alice"].fail()
	expectReady(t, "alice's ended without a reply", map[string]bool{"bob": false}, f)
	answer(f["carol"], 30, 110, "DEL lock:x", int1, nil)
	expectReady(t, "carol's ran later", map[string]bool{"bob": true, "carol": false}, f)
	f["dave"] = o.send("dave", "tcp:a")
	expectReady(t, "dave's sent after bob's and carol's replies", map[string]bool{"bob": true, "carol": false}, f)
	f["bob2"] = o.send("bob", "tcp:a")
	expectReady(t, "bob sent again: its untaken event will not be", map[string]bool{"carol": true}, f)
}

// TestOrderSameMicrosecond: two transactions with the same TIME. The one
// that read the token the other's SET NX wrote ran after it; otherwise
// nothing proves an order, and neither waits for the other.
func TestOrderSameMicrosecond(t *testing.T) {
	o := newOrder()
	f := map[string]*Flight{"alice": o.send("alice", "tcp:a"), "bob": o.send("bob", "tcp:a")}
	answer(f["bob"], 10, 100, "SET lock:x tok-b NX PX 2000", nilR, heldA)
	answer(f["alice"], 10, 130, "SET lock:x tok-a NX PX 2000", ok, heldA)
	expectReady(t, "bob read alice's token", map[string]bool{"alice": true, "bob": false}, f)
	f["alice"].Take()
	f["bob"].Take()

	f["carol"], f["dave"] = o.send("carol", "tcp:a"), o.send("dave", "tcp:a")
	answer(f["carol"], 50, 200, "DEL lock:y", int1, nil)
	answer(f["dave"], 50, 210, "SET lock:z tok-d NX", ok, []check.KeyState{{Key: "lock:z", Exists: true, Value: "tok-d"}})
	expectReady(t, "nothing proves an order", map[string]bool{"carol": true, "dave": true}, f)
}

// TestOrderOnServers: the probe reads the server's clock in the
// transaction, on the embedded and a real Redis, so that alice's SET NX,
// sent and answered first, is known to have run before bob's, which read
// alice's token: bob's event, handed over first, waits for alice's.
func TestOrderOnServers(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			set := session.NewSet(session.Target{Network: "tcp", Addr: addr})
			t.Cleanup(set.Close)
			set.Use(New().Middleware())
			do := func(name, line string) *Flight {
				e, err := set.Get(name).Do(context.Background(), strings.Fields(line))
				st, _ := e.Probe.(States)
				if err != nil || st.Served.IsZero() || st.Flight == nil {
					t.Fatalf("%s %s: %v, server time %v, flight %v; want a probed event", name, line, err, st.Served, st.Flight)
				}
				return st.Flight
			}
			f := map[string]*Flight{"alice": do("alice", "SET lock:o tok-a NX PX 2000"), "bob": do("bob", "SET lock:o tok-b NX PX 2000")}
			expectReady(t, "both answered, none taken", map[string]bool{"alice": true, "bob": false}, f)
			f["alice"].Take()
			expectReady(t, "alice's taken", map[string]bool{"bob": true}, f)
		})
	}
}

// TestOrderNoReply: a probed command that got no reply (nothing listens
// at the address), or whose transaction did not run (bad arguments, which
// the embedded Redis refuses while queueing), leaves nothing in flight
// for an event to wait for.
func TestOrderNoReply(t *testing.T) {
	for what, addr := range map[string]string{"no server": "127.0.0.1:1", "bad arguments": redistest.Embedded(t)} {
		t.Run(what, func(t *testing.T) {
			p := New()
			set := session.NewSet(session.Target{Network: "tcp", Addr: addr})
			t.Cleanup(set.Close)
			set.Use(p.Middleware())
			set.Get("alice").Do(context.Background(), strings.Fields("SET lock:n tok-a NX PX abc"))
			p.order.mu.Lock()
			defer p.order.mu.Unlock()
			if len(p.order.live) != 0 {
				t.Errorf("%d flight(s) left in flight; want none", len(p.order.live))
			}
		})
	}
}
