package redlock

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// target is a node as a command reaches it: down, or up at an address
// ("" for a node in process, which only its Target reaches).
type target struct {
	name, addr string
	up         bool
	to         session.Target
}

// targetOf is nd as a command reaches it now. l.mu is held.
func targetOf(nd *node) target {
	t := target{name: nd.name, up: nd.srv != nil}
	switch srv := nd.srv.(type) {
	case nil:
	case *server.Embedded:
		if t.addr = srv.Addr(); t.addr == "" {
			t.to = session.Target{Network: "tcp", Addr: "127.0.0.1:0", InProcess: srv} // an IP: go-redis looks a name up
			break
		}
		t.to = session.Target{Network: "tcp", Addr: t.addr}
	default:
		t.addr = srv.Addr()
		t.to = session.Target{Network: "tcp", Addr: t.addr}
	}
	return t
}

// label is how status names where the node is: its address, or "in
// process".
func (t target) label() string {
	if t.addr == "" {
		return "in process"
	}
	return t.addr
}

// targets are the nodes as of now (once the delayed restarts that are
// due are done).
func (l *Lab) targets() ([]target, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.nodes) == 0 {
		return nil, errNoNodes
	}
	l.backLocked()
	out := make([]target, len(l.nodes))
	for i, nd := range l.nodes {
		out[i] = targetOf(nd)
	}
	return out, nil
}

// reach is node name as a command reaches it now; down when the lab has
// no such node (any more: `redlock down`).
func (l *Lab) reach(name string) target {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.backLocked()
	nd, err := l.findLocked(name)
	if err != nil {
		return target{name: name}
	}
	return targetOf(nd)
}

// errDown is the answer of a node that is down.
var errDown = fmt.Errorf("node down")

// via is how a word's commands reach the nodes: on connections named
// conn, each within timeout, timed on clock; with a gate (see UpAt), one
// node after another, each a turn of session's there.
type via struct {
	clock         clock.Clock
	gate          session.Gate
	session, conn string
	timeout       time.Duration
}

// everywhere sends args to every node and returns the answers in node
// order, timed on v.clock (the clock the attempt's Start was read on):
// in parallel, each with its own timeout, or through v's gate one after
// another (oneByOne).
func (l *Lab) everywhere(ctx context.Context, v via, ts []target, args []string) []Answer {
	if v.gate != nil {
		return l.oneByOne(ctx, v, ts, args)
	}
	c := v.clock
	out := make([]Answer, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		out[i] = Answer{Node: t.name, Args: args, Err: errDown, Start: c.Now()}
		out[i].End = out[i].Start
		if !t.up {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].Start = c.Now()
			out[i].Reply, out[i].Err = ask(ctx, t.to, v.conn, v.timeout, args)
			out[i].End = c.Now()
		}()
	}
	wg.Wait()
	return out
}

// oneByOne sends args to the nodes A, B, C ... one after another from
// the caller's goroutine, each a turn at v's gate as a step of v.session
// on that node (session.TurnOn): explore's scheduler sees each as a
// choice point against the other sessions' commands, and counts no
// goroutine it did not start; a saved schedule's order forces the same
// steps. A node down when its turn would be asked for is not sent to,
// and takes no turn; one that went down while its turn waited answers as
// down.
func (l *Lab) oneByOne(ctx context.Context, v via, ts []target, args []string) []Answer {
	out := make([]Answer, len(ts))
	for i, t := range ts {
		out[i] = v.askAt(ctx, l, t.name, args)
	}
	return out
}

// askAt sends args to node name, in its turn at v's gate.
func (v via) askAt(ctx context.Context, l *Lab, name string, args []string) Answer {
	a := Answer{Node: name, Args: args, Err: errDown, Start: v.clock.Now()}
	a.End = a.Start
	if !l.reach(name).up {
		return a
	}
	release, err := session.TurnOn(ctx, v.gate, v.session, name, args)
	if err != nil {
		a.Err = err
		return a
	}
	a.Start = v.clock.Now()
	if t := l.reach(name); t.up {
		a.Reply, a.Err = ask(ctx, t.to, v.conn, v.timeout, args)
	}
	if a.Err == nil && session.LosesReply(v.gate, session.At(v.session, name)) {
		a.Reply, a.Err = resp.Reply{}, session.ErrReplyLost // a lost-reply fault: the node ran it, the client never hears
	}
	a.End = v.clock.Now()
	release(session.Event{Session: v.session, Args: args, Reply: a.Reply, Err: a.Err, Start: a.Start, End: a.End})
	return a
}

// ask sends one command on a fresh connection to to, within timeout.
func ask(ctx context.Context, to session.Target, conn string, timeout time.Duration, args []string) (resp.Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := session.NewConn(to, conn)
	defer c.Close()
	r, err := c.Do(ctx, args)
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("timeout after %v", timeout)
	}
	return r, err
}
