package redlock

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/server"
)

// Kind is what a lab's nodes are.
type Kind int

const (
	Embedded Kind = iota // in-process servers, each on a clock of its own
	Real                 // redis-server processes on free ports, no persistence
)

// nodeServer is a node's running server: an embedded one or a process.
type nodeServer interface {
	Addr() string
	Close()
}

// realPrefix names the temporary folders of real nodes (see
// server.OwnedDir): one per lab, a subfolder per start of a node.
const realPrefix = "locklab-redlock-"

// startServer starts nd's server, empty: embedded on nd's clock (in
// process, listening on no port, or on a loopback port), or a
// redis-server process in a new subfolder of dir (so its log says
// "ready" only once it is), which ctx cancels while it starts.
func startServer(ctx context.Context, kind Kind, dir string, nd *node, inProcess bool) (nodeServer, error) {
	switch {
	case kind == Embedded && inProcess:
		return server.StartInProcess(nd.clock)
	case kind == Embedded:
		return server.StartEmbeddedClock(nd.clock)
	}
	sub, err := os.MkdirTemp(dir, nd.name+"-")
	if err != nil {
		return nil, err
	}
	p, err := server.StartProcess(ctx, sub)
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", nd.name, err)
	}
	return p, nil
}

// pid is the process ID of a real node's server, 0 for an embedded one.
func pid(s nodeServer) int {
	if p, ok := s.(*server.Process); ok {
		return p.PID()
	}
	return 0
}

// names are the nodes' names, A B C ...
func (l *Lab) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.nodes))
	for i, nd := range l.nodes {
		out[i] = nd.name
	}
	return out
}

// holding names the nodes that are up, for a second `redlock up` that
// is refused.
func (l *Lab) holding() string {
	return fmt.Sprintf("nodes %s (%s)", strings.Join(l.names(), " "), l.describe())
}

// describe says what the nodes are, for `redlock up`.
func (l *Lab) describe() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.kind == Embedded {
		return "each embedded on its own clock"
	}
	pids := make([]string, len(l.nodes))
	for i, nd := range l.nodes {
		pids[i] = strconv.Itoa(pid(nd.srv))
	}
	return fmt.Sprintf("redis-server processes %s (no persistence) in %s", strings.Join(pids, " "), l.dir)
}

// PIDs are the process IDs of the real nodes that are up.
func (l *Lab) PIDs() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []int
	for _, nd := range l.nodes {
		if nd.srv != nil && pid(nd.srv) > 0 {
			out = append(out, pid(nd.srv))
		}
	}
	return out
}
