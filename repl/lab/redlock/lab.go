package redlock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// Lab is the nodes of one shell. Its zero value has no nodes; every
// method is safe for concurrent use. What the nodes granted is the run's
// record's to judge (see Attempt.Quorum).
type Lab struct {
	slot   server.Slot // the one set of nodes at a time
	mu     sync.Mutex
	nodes  []*node
	gen    int             // counts Ups (see Gen)
	key    string          // the last key acquired, for status
	life   context.Context // ends (and delayed restarts with it) on Down
	stop   context.CancelFunc
	kind   Kind
	client Client
	dir    string       // real nodes' temporary folder, removed on Down
	gate   session.Gate // nil, or the gate every command to the nodes takes its turn at (see UpAt)
}

// node is one independent Redis: down when srv is nil.
type node struct {
	name  string
	clock *clock.Offset
	srv   nodeServer
	gen   int // counts crashes, so a delayed restart never revives a newer life
	// back is when a delayed restart brings a gated lab's node back (zero:
	// none due), on the restart's clock (see Restart).
	back   time.Time
	backOn clock.Clock
}

// MaxNodes is the most nodes Up starts.
const MaxNodes = 9

// Up starts n fresh nodes, A, B, C ..., unless nodes are up or starting
// already: one set at a time, until Down. Embedded nodes are each an
// in-process server on a clock of its own (base plus an offset),
// listening on a loopback port; real ones are redis-server processes, in
// a temporary folder this process owns, until Down (or
// server.StopAllSlots). ctx cancels the start.
func (l *Lab) Up(ctx context.Context, n int, base clock.Clock, kind Kind) error {
	return l.UpAt(ctx, n, base, kind, nil)
}

// UpAt is Up for a run whose sessions take turns at gate g (explore's
// scheduler, a saved schedule's order; nil: none). Every command the lab
// sends its nodes then takes a turn there too, as a step of the session
// that sends it, one node after another from that session's own
// goroutine (see send.go); its faults (crash, restart, clock jump) are
// steps of the node's, a delayed restart needs no goroutine of the lab's
// own, and embedded nodes listen on no port (in-memory connections, as
// explore's own server).
func (l *Lab) UpAt(ctx context.Context, n int, base clock.Clock, kind Kind, g session.Gate) error {
	if n < 1 || n > MaxNodes {
		return fmt.Errorf("--nodes %d: want 1 to %d", n, MaxNodes)
	}
	start, err := l.slot.Claim(ctx)
	if err != nil {
		return refusedUp(err)
	}
	nodes, dir, err := startNodes(start, n, base, kind, g != nil)
	if err != nil {
		l.slot.Release()
		return startFailed(ctx, err)
	}
	life, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.nodes, l.key, l.life, l.stop, l.kind, l.dir, l.gate = nodes, "", life, cancel, kind, dir, g
	l.gen++
	l.mu.Unlock()
	if err := l.slot.Fill(l.holding(), l.stopNodes); err != nil {
		return errStoppedWhileStarting
	}
	return nil
}

// refusedUp says why a second `redlock up` is refused, and how to stop
// the nodes that are up.
func refusedUp(err error) error {
	var busy *server.Busy
	switch {
	case errors.As(err, &busy) && busy.Starting:
		return errors.New("redlock up: refused: another `redlock up` is starting nodes (one set at a time); `redlock down` stops them")
	case errors.As(err, &busy):
		return fmt.Errorf("redlock up: refused: %s are up; stop them first with `redlock down`", busy.Holding)
	}
	return err
}

var errStoppedWhileStarting = errors.New("redlock up: stopped (`redlock down`, or locklab ending) while the nodes started")

// startFailed is Up's error when starting the nodes failed: Ctrl-C's (ctx
// is the caller's), a stop by Down, or what went wrong.
func startFailed(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return errStoppedWhileStarting
	}
	return err
}

// startNodes starts n nodes of kind (embedded ones in process, or on a
// loopback port), and real nodes' folder; on failure nothing of them is
// left.
func startNodes(ctx context.Context, n int, base clock.Clock, kind Kind, inProcess bool) ([]*node, string, error) {
	dir, err := ownDir(kind)
	if err != nil {
		return nil, "", err
	}
	nodes := make([]*node, n)
	for i := range nodes {
		nd := &node{name: string(rune('A' + i)), clock: clock.NewOffset(base)}
		if nd.srv, err = startServer(ctx, kind, dir, nd, inProcess); err != nil {
			closeAll(nodes[:i])
			if dir != "" {
				os.RemoveAll(dir)
			}
			return nil, "", err
		}
		nodes[i] = nd
	}
	return nodes, dir, nil
}

// ownDir is a temporary folder for real nodes ("" for embedded ones),
// once the folders of labs whose process is gone are removed.
func ownDir(kind Kind) (string, error) {
	if kind == Embedded {
		return "", nil
	}
	server.RemoveStale(realPrefix)
	return server.OwnedDir(realPrefix)
}

// Down stops every node (and a `redlock up` still starting), removes the
// real nodes' folder and forgets them.
func (l *Lab) Down() { l.slot.Stop() }

// stopNodes stops the nodes that are up and removes their folder: what
// the slot calls on Down.
func (l *Lab) stopNodes() {
	l.mu.Lock()
	nodes, stop, dir := l.nodes, l.stop, l.dir
	l.nodes, l.stop, l.dir = nil, nil, ""
	l.mu.Unlock()
	if stop != nil {
		stop()
	}
	closeAll(nodes)
	if dir != "" {
		os.RemoveAll(dir)
	}
}

func closeAll(nodes []*node) {
	for _, nd := range nodes {
		if nd != nil && nd.srv != nil {
			nd.srv.Close()
		}
	}
}

// find is the node called name, or an error naming the nodes there are.
// l.mu is held.
func (l *Lab) findLocked(name string) (*node, error) {
	if len(l.nodes) == 0 {
		return nil, errNoNodes
	}
	for _, nd := range l.nodes {
		if nd.name == name {
			return nd, nil
		}
	}
	return nil, fmt.Errorf("no node %s: the nodes are %s to %s", name, l.nodes[0].name, l.nodes[len(l.nodes)-1].name)
}

// ErrRealClock refuses a clock jump on a real node.
func ErrRealClock(name string) error {
	return fmt.Errorf("clock jump: node %s is a redis-server process, which expires keys by the host's clock: locklab cannot move one process's clock soundly (libfaketime hangs redis-server at start-up), so it does not pretend to; clock jumps need embedded nodes (redlock up without --real)", name)
}

var errNoNodes = fmt.Errorf("no redlock nodes: start them with `redlock up`")

// Jump moves node name's clock by d: its TTLs run out (or gain) d at once.
func (l *Lab) Jump(name string, d time.Duration) (time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	nd, err := l.findLocked(name)
	if err != nil {
		return 0, err
	}
	if l.kind == Real {
		return 0, ErrRealClock(name)
	}
	nd.clock.Jump(d)
	return nd.clock.Get(), nil
}

func (l *Lab) KindNow() Kind {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.kind
}
