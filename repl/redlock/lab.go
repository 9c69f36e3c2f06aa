package redlock

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/server"
)

// Lab is the nodes of one shell and the grants they made. Its zero value
// has no nodes; every method is safe for concurrent use.
type Lab struct {
	mu     sync.Mutex
	nodes  []*node
	grants []*grant
	key    string          // the last key acquired, for status
	life   context.Context // ends (and delayed restarts with it) on Down
	stop   context.CancelFunc
}

// node is one independent Redis: down when srv is nil.
type node struct {
	name  string
	clock *clock.Offset
	srv   *server.Embedded
	gen   int // counts crashes, so a delayed restart never revives a newer life
}

// MaxNodes is the most nodes Up starts.
const MaxNodes = 9

// Up stops any nodes and starts n fresh ones, A, B, C ..., each its own
// embedded server on its own clock (base plus an offset), and forgets
// every grant.
func (l *Lab) Up(n int, base clock.Clock) error {
	if n < 1 || n > MaxNodes {
		return fmt.Errorf("--nodes %d: want 1 to %d", n, MaxNodes)
	}
	l.Down()
	nodes := make([]*node, n)
	for i := range nodes {
		nd := &node{name: string(rune('A' + i)), clock: clock.NewOffset(base)}
		srv, err := server.StartEmbeddedClock(nd.clock)
		if err != nil {
			closeAll(nodes[:i])
			return err
		}
		nd.srv, nodes[i] = srv, nd
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nodes, l.grants, l.key, l.life, l.stop = nodes, nil, "", ctx, cancel
	return nil
}

// Down stops every node and forgets them.
func (l *Lab) Down() {
	l.mu.Lock()
	nodes, stop := l.nodes, l.stop
	l.nodes, l.grants, l.stop = nil, nil, nil
	l.mu.Unlock()
	if stop != nil {
		stop()
	}
	closeAll(nodes)
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

var errNoNodes = fmt.Errorf("no redlock nodes: start them with `redlock up`")

// Jump moves node name's clock by d: its TTLs run out (or gain) d at once.
func (l *Lab) Jump(name string, d time.Duration) (time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	nd, err := l.findLocked(name)
	if err != nil {
		return 0, err
	}
	nd.clock.Jump(d)
	return nd.clock.Get(), nil
}
