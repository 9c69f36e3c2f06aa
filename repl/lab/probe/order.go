package probe

import (
	"slices"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// order is the probed commands of one Prober that are in flight: sent,
// and neither taken by the recorder (Flight.Take) nor ended without a
// reply. Every change is broadcast to the events waiting for their turn.
type order struct {
	mu   sync.Mutex
	cond *sync.Cond
	live []*Flight // guarded by mu
}

func newOrder() *order {
	o := &order{}
	o.cond = sync.NewCond(&o.mu)
	return o
}

// Flight is one probed command, from just before it is sent until its
// event is taken (Take) or it ends without a reply. Its place in the
// server's order is its server time (TIME, read in its transaction); see
// the package doc.
type Flight struct {
	o       *order
	session string
	server  string // the server it was sent to: only its own clock orders it
	// Guarded by o.mu:
	answered bool // its reply came: the fields below are set
	settled  bool // taken, or ended without a reply: nothing waits for it
	served   time.Time
	end      time.Time        // when its reply was read
	acquired check.KeyState   // the lock its SET ... NX took, if it won one
	seen     []check.KeyState // the lock keys as its transaction read them, but the one it took
	racing   []*Flight        // the flights in flight when its reply came
}

// send registers a probed command of session about to be sent to server
// (session.Conn.Server). A flight of the same session that was answered
// but never taken will not be: the session has moved on (its reply was
// not annotated), so it is settled and nothing waits for it any longer.
func (o *order) send(session, server string) *Flight {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, g := range slices.Clone(o.live) { // settle removes from o.live
		if g.session == session && g.answered {
			g.settle()
		}
	}
	f := &Flight{o: o, session: session, server: server}
	o.live = append(o.live, f)
	return f
}

// settle takes f out of flight; o.mu is held. What it read is no longer
// needed: a waiter reads only that it is settled (and flights that keep
// their racing ones would keep the whole run).
func (f *Flight) settle() {
	f.settled, f.racing, f.seen = true, nil, nil
	f.o.live = slices.DeleteFunc(f.o.live, func(g *Flight) bool { return g == f })
	f.o.cond.Broadcast()
}

// fail says f ended without a reply (a connection error, Ctrl-C), or
// that its transaction did not run: nothing waits for it.
func (f *Flight) fail() {
	f.o.mu.Lock()
	defer f.o.mu.Unlock()
	f.settle()
}

// answer records f's reply, read at end: the server's time and what its
// transaction read. The flights still in flight then are those whose
// events may have to come first.
func (f *Flight) answer(end time.Time, args []string, reply resp.Reply, st States) {
	f.o.mu.Lock()
	defer f.o.mu.Unlock()
	f.answered, f.served, f.end = true, st.Served, end
	f.acquired, f.seen = readKeys(args, reply, st)
	for _, g := range f.o.live {
		if g != f {
			f.racing = append(f.racing, g)
		}
	}
	f.o.cond.Broadcast()
}

// readKeys splits what a transaction read into the lock it took (a SET
// ... NX answered OK, or a SETNX answered 1: the key then holds its
// token) and the values it found.
func readKeys(args []string, reply resp.Reply, st States) (acquired check.KeyState, seen []check.KeyState) {
	key, token, _, isNX := lockargs.IsSetNX(args)
	won := isNX && ((reply.Kind == resp.Status && reply.Str == "OK") || (reply.Kind == resp.Int && reply.Int == 1))
	for _, s := range slices.Concat(st.Before, st.After) {
		if won && s.Key == key && s.Exists && s.Value == token {
			acquired = s
			continue
		}
		if s.Exists {
			seen = append(seen, s)
		}
	}
	return acquired, seen
}

// before reports whether the server ran f before g, as the two
// transactions prove: on the same server, f's TIME is earlier; or, within
// the same microsecond, g read the token f's SET ... NX had just written
// (g ran after it). Otherwise neither is known to come first (two
// servers' clocks are not compared), and their events keep the order in
// which they reached the recorder. o.mu is held.
func (f *Flight) before(g *Flight) bool {
	if f.served.IsZero() || g.served.IsZero() || f.server != g.server {
		return false
	}
	if !f.served.Equal(g.served) {
		return f.served.Before(g.served)
	}
	if !f.acquired.Exists {
		return false
	}
	return slices.ContainsFunc(g.seen, func(s check.KeyState) bool {
		return s.Key == f.acquired.Key && s.Value == f.acquired.Value
	})
}

// ready reports whether f's event may be taken: every flight to f's
// server that was in flight when f's reply came has been taken or ended
// without a reply, or is known not to have run before f. o.mu is held.
func (f *Flight) ready() bool {
	for _, g := range f.racing {
		if !g.settled && g.server == f.server && (!g.answered || g.before(f)) {
			return false
		}
	}
	return true
}

// Wait blocks until f's event may be taken: until the events of the
// commands the server ran before it are taken, or their commands ended
// without a reply. It waits only for commands that were in flight when
// f's reply came, so it never waits for one sent after.
func (f *Flight) Wait() {
	f.o.mu.Lock()
	defer f.o.mu.Unlock()
	for !f.ready() {
		f.o.cond.Wait()
	}
}

// Take says f's event is being taken (call it after Wait, before the
// event is fed to the annotator) and returns by when the server had run
// f: its own reply, or the reply of a command the server ran after it
// that came sooner. The commands waiting for f may go from then on.
func (f *Flight) Take() time.Time {
	f.o.mu.Lock()
	defer f.o.mu.Unlock()
	ranBy := f.end
	for _, g := range f.o.live {
		if g.answered && f.before(g) && g.end.Before(ranBy) {
			ranBy = g.end
		}
	}
	f.settle()
	return ranBy
}
