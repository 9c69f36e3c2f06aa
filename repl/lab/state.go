package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/lab/failover"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lang/words"
)

// State is the state the words of one shell share: the failover lab's
// servers, and the Lua scripts loaded on the lab's server. Background
// jobs use it at once: every field is behind mu, or safe on its own.
type State struct {
	mu       sync.Mutex
	cluster  *cluster
	clusters server.Slot       // the one cluster at a time (up or attached), safe on its own
	scripts  map[string]string // script -> SHA1
	redlock  redlock.Lab       // lesson 5's nodes (safe on its own)
}

// Redlock is the Redlock lab's nodes and grants.
func (l *State) Redlock() *redlock.Lab { return &l.redlock }

// NewState makes an empty state.
func NewState() *State { return &State{scripts: map[string]string{}} }

// statePart is the lab's state in each shell.
var statePart = words.NewPart(NewState)

// RedlockOf is the Redlock lab of the shell env runs in (a saved
// schedule's faults act on its nodes).
func RedlockOf(env words.Env) *redlock.Lab { return stateOf(env).Redlock() }

// stateOf is the lab's state in the shell env runs in.
func stateOf(env words.Env) *State { return statePart.Of(env) }

// cluster is the primary/replica pair a failover lab runs on: real
// redis-server children with a proxy in the replication link (cluster
// up), or servers the user runs (cluster attach, cut with CLIENT PAUSE).
// Its fields are read under State.mu.
type cluster struct {
	t        *failover.Topology
	dir      string // the temporary directory of servers we started
	promoted bool   // the replica is the primary now
	paused   bool   // the link is "cut" with CLIENT PAUSE WRITE
}

// Close stops the lab's servers with the shell: the cluster's and
// Redlock's nodes.
func (l *State) Close() { l.stopCluster(); l.redlock.Down() }

// stopCluster stops the servers `cluster up` started (by PID) and removes
// their directory, or detaches from attached ones; a `cluster up` still
// starting is stopped first. It is safe to call when there is none.
func (l *State) stopCluster() { l.clusters.Stop() }

// claimCluster takes the lab's one place for a cluster, for word
// (`cluster up` or `cluster attach`), or says which cluster holds it and
// how to stop that one. The start runs under the context it returns.
func (l *State) claimCluster(ctx context.Context, word string) (context.Context, error) {
	ctx, err := l.clusters.Claim(ctx)
	var busy *server.Busy
	switch {
	case errors.As(err, &busy) && busy.Starting:
		return nil, words.Failf("%s: refused: another `cluster up` or `cluster attach` is starting a cluster (one at a time); `cluster down` stops it", word)
	case errors.As(err, &busy):
		return nil, words.Failf("%s: refused: a cluster is already up (%s); stop it first with `cluster down`", word, busy.Holding)
	}
	return ctx, err
}

// holdCluster makes c the lab's cluster, once word started it. When the
// cluster was stopped meanwhile (`cluster down`, the end of locklab), c
// is stopped at once and the error says so.
func (l *State) holdCluster(word string, c *cluster) error {
	l.mu.Lock()
	l.cluster = c
	l.mu.Unlock()
	if err := l.clusters.Fill(c.describe(), func() { l.dropCluster(c) }); err != nil {
		return words.Failf("%s: stopped (`cluster down`, or locklab ending) while it started", word)
	}
	return nil
}

// dropCluster forgets c and stops it.
func (l *State) dropCluster(c *cluster) {
	l.mu.Lock()
	if l.cluster == c {
		l.cluster = nil
	}
	paused := c.paused
	l.mu.Unlock()
	c.close(paused)
}

// close gives the replica its writes back when the link is cut with a
// pause (a replica locklab does not own would refuse writes for up to
// PauseTimeout after locklab is gone), then stops the servers locklab
// started and removes their directory.
func (c *cluster) close(paused bool) {
	if paused {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		failover.PauseHeal(ctx, c.t.ReplicaAddr())
		cancel()
	}
	c.t.Close()
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// describe names the cluster, for a second `cluster up` that is refused.
func (c *cluster) describe() string {
	if c.dir == "" {
		return fmt.Sprintf("attached to primary %s and replica %s", c.t.PrimaryAddr(), c.t.ReplicaAddr())
	}
	p, r := c.t.PIDs()
	return fmt.Sprintf("primary %s and replica %s, redis-server processes %d %d", c.t.PrimaryAddr(), c.t.ReplicaAddr(), p, r)
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
