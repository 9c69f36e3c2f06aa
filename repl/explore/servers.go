package explore

import (
	"sync"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/clock"
)

// servers keeps the embedded servers of a search's ended schedules, for
// the next ones: a server reset in place (server.Embedded.Reset) costs a
// fraction of a new one. A nil *servers starts a new server for every
// schedule and keeps none (the plain search, --plain).
type servers struct {
	mu   sync.Mutex
	idle []*server.Embedded
}

// get is a server for a schedule on clock c: an idle one reset, or a new
// one.
func (p *servers) get(c clock.Clock) (*server.Embedded, error) {
	for e := p.take(); e != nil; e = p.take() {
		if e.Reset(c) == nil {
			return e, nil
		}
		e.Close()
	}
	return server.StartInProcess(c)
}

// take is an idle server, or nil.
func (p *servers) take() *server.Embedded {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return nil
	}
	e := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return e
}

// put gives back the server of a schedule that ended; one whose schedule
// failed (an error, a stop) is closed instead, as is every server when
// the pool is nil.
func (p *servers) put(e *server.Embedded, clean bool) {
	if p == nil || !clean {
		e.Close()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, e)
}

// close closes the idle servers: the search is over.
func (p *servers) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.idle {
		e.Close()
	}
	p.idle = nil
}
