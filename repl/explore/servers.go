package explore

import (
	"runtime"
	"sync"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// servers keeps the embedded servers of ended schedules, with the
// connections their sessions left open, for the next schedules, of this
// search or a later one in the same process (a benchmark's, `locklab
// test`'s labs): a server reset in place (server.Embedded.Reset) and
// connections reset (session.Links) cost a fraction of new ones. It
// keeps at most max idle; a nil *servers starts a new server for every
// schedule and keeps nothing (the plain search, --plain).
type servers struct {
	mu   sync.Mutex
	idle []rig
	max  int
}

// idleServers are the servers every search shares: one per worker that
// can run at once, and a few more for searches side by side (a test's).
var idleServers = &servers{max: 2*runtime.GOMAXPROCS(0) + 2}

// rig is one server and the connections kept open on it.
type rig struct {
	server *server.Embedded
	links  *session.Links // nil: none kept (the plain search)
}

// close closes the server and its connections.
func (r rig) close() {
	if r.links != nil {
		r.links.Close()
	}
	r.server.Close()
}

// get is a server for a schedule on clock c: an idle one reset, or a new
// one.
func (p *servers) get(c clock.Clock) (rig, error) {
	for r, ok := p.take(); ok; r, ok = p.take() {
		if r.server.Reset(c, r.links.Open()) == nil {
			return r, nil
		}
		r.close()
	}
	e, err := server.StartInProcess(c)
	if err != nil || p == nil {
		return rig{server: e}, err
	}
	return rig{server: e, links: session.NewLinks()}, nil
}

// take is an idle rig, if any.
func (p *servers) take() (rig, bool) {
	if p == nil {
		return rig{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return rig{}, false
	}
	r := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return r, true
}

// put gives back the rig of a schedule that ended; one whose schedule
// failed (an error, a stop) is closed instead, as is every rig when the
// pool is nil.
func (p *servers) put(r rig, clean bool) {
	if p == nil || !clean {
		r.close()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) >= p.max {
		r.close()
		return
	}
	p.idle = append(p.idle, r)
}
