package words

import (
	"os"
	"sync"

	"github.com/locklab/locklab/repl/redlock"
	"github.com/locklab/locklab/repl/server"
	"github.com/locklab/locklab/repl/topology"
)

// State is the state the words of one shell share: the failover lab's
// servers, and the Lua scripts loaded on the lab's server. Background
// jobs use it at once: every field is behind mu.
type State struct {
	mu      sync.Mutex
	cluster *cluster
	scripts map[string]string // script -> SHA1
	redlock redlock.Lab       // lesson 5's nodes (safe on its own)
}

// Redlock is the Redlock lab's nodes and grants.
func (l *State) Redlock() *redlock.Lab { return &l.redlock }

// NewState makes an empty state.
func NewState() *State { return &State{scripts: map[string]string{}} }

// cluster is the primary/replica pair a failover lab runs on: real
// redis-server children with a proxy in the replication link (cluster
// up), or servers the user runs (cluster attach, cut with CLIENT PAUSE).
// Its fields are read under State.mu.
type cluster struct {
	t        *topology.Topology
	dir      string // the temporary directory of servers we started
	promoted bool   // the replica is the primary now
	paused   bool   // the link is "cut" with CLIENT PAUSE WRITE
}

// Close stops the servers `cluster up` started (by PID) and removes
// their directory. It is safe to call when there is none.
func (l *State) Close() {
	l.mu.Lock()
	c := l.cluster
	l.cluster = nil
	l.mu.Unlock()
	c.close()
}

func (l *State) setCluster(c *cluster) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cluster = c
	running.Add(c)
}

// close stops the cluster's servers and removes its directory.
func (c *cluster) close() {
	if c == nil {
		return
	}
	running.Remove(c)
	c.t.Close()
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// running are the clusters of every shell of the process, so that a
// signal that ends it (SIGTERM, SIGHUP, SIGQUIT) can stop them first.
var running server.Running[*cluster]

// CloseClusters stops the servers of every cluster the process started
// and removes their directories: what a signal that ends locklab does
// first.
func CloseClusters() {
	for _, c := range running.All() {
		c.close()
	}
}

// clusterNow is the cluster and its state, as of now.
func (l *State) clusterNow() (c *cluster, promoted, paused bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cluster == nil {
		return nil, false, false
	}
	return l.cluster, l.cluster.promoted, l.cluster.paused
}

// update changes the cluster's state under the lock.
func (l *State) update(c *cluster, f func(*cluster)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(c)
}

// SHA is the SHA1 of a script loaded on the server, or "".
func (l *State) SHA(script string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.scripts[script]
}

// SetLoaded remembers that script is loaded as sha.
func (l *State) SetLoaded(script, sha string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.scripts[script] = sha
}
