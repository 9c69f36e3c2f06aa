package redlock

import (
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/record"
)

// NodeExpiry is a node's key whose time to live runs out first, on the
// node's own clock (explore's faults: time running on to it, a clock jump
// of the node to it).
type NodeExpiry struct {
	Node string
	server.Expiry
}

// Expiries are, for each embedded node that is up and holds a key with a
// TTL, its key that runs out first, in node order. Like server.Peek it
// sends no command: call it only while no command runs.
func (l *Lab) Expiries() []NodeExpiry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []NodeExpiry
	for _, nd := range l.nodes {
		if e, ok := nd.srv.(*server.Embedded); ok {
			if next, ok := e.NextExpiry(); ok {
				out = append(out, NodeExpiry{Node: nd.name, Expiry: next})
			}
		}
	}
	return out
}

// Holding are the embedded nodes that are up and hold a key, in node
// order: the ones whose restart without persistence loses something.
func (l *Lab) Holding() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, nd := range l.nodes {
		if e, ok := nd.srv.(*server.Embedded); ok && e.KeyCount() > 0 {
			out = append(out, nd.name)
		}
	}
	return out
}

// RestartEmpty is node name crashing and coming back at once, empty (no
// persistence), at t: explore's restart fault on a node. rec hears it as
// the crash and restart words tell it, so that Redlock's verdict and
// picture know the node's grants were lost, not expired.
func (l *Lab) RestartEmpty(name string, t time.Time, rec *record.Recorder) error {
	if err := l.Crash(name); err != nil {
		return err
	}
	if err := l.Restart(name, 0, nil, nil); err != nil {
		return err
	}
	rec.Fault("", "", quorum.Fault{Lab: l.Gen(), Node: name, Kind: quorum.Crash, At: t})
	rec.Fault("", "", quorum.Fault{Lab: l.Gen(), Node: name, Kind: quorum.Restart, At: t})
	return nil
}

// JumpAt is node name's clock jumping d ahead at t: explore's clock-jump
// fault on a node, told to rec as the clock word tells it.
func (l *Lab) JumpAt(name string, d time.Duration, t time.Time, rec *record.Recorder) error {
	if _, err := l.Jump(name, d); err != nil {
		return err
	}
	rec.Fault("", "", quorum.Fault{Lab: l.Gen(), Node: name, Kind: quorum.Jump, By: d, At: t})
	return nil
}

// IsUp reports whether node name is up (a delayed restart that is due
// comes back first, as for a command).
func (l *Lab) IsUp(name string) bool { return l.reach(name).up }
