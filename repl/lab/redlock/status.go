package redlock

import (
	"context"
	"fmt"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
)

// nodeState is a node as status shows it.
type nodeState struct {
	target
	offset, label string // label: the address, and a real node's PID
}

func (l *Lab) states() ([]nodeState, string, error) {
	ts, err := l.targets()
	if err != nil {
		return nil, "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]nodeState, len(ts))
	for i, t := range ts {
		out[i] = nodeState{target: t, offset: signed(l.nodes[i].clock.Get()), label: t.label()}
		if l.kind == Real {
			out[i].offset = "host"
		}
		if t.up && l.kind == Real {
			out[i].label = fmt.Sprintf("%s (pid %d)", t.addr, pid(l.nodes[i].srv))
		}
	}
	return out, l.key, nil
}

// status prints each node: up or down, its clock's offset, and the key's
// holder and PTTL as the node answers them (in the calling session's
// turns, when the lab is gated).
func (l *Lab) status(ctx context.Context, env Env, args []string) error {
	states, key, err := l.states()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		key = args[0]
	}
	w, v := env.Stdout(), l.via(timing(env), env.Session(), Defaults.Timeout)
	v.conn = ""
	for _, s := range states {
		if !s.up {
			fmt.Fprintf(w, "  %s  down            clock %s\n", s.name, s.offset)
			continue
		}
		line := fmt.Sprintf("  %s  up %s  clock %s", s.name, s.label, s.offset)
		if key != "" {
			line += "  " + l.holds(ctx, v, s.target, key)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// holds is key's value and PTTL on node t.
func (l *Lab) holds(ctx context.Context, v via, t target, key string) string {
	get, err := l.askOne(ctx, v, t, []string{"GET", key})
	if err != nil {
		return "no answer: " + err.Error()
	}
	if get.Kind == resp.Nil {
		return check.Say("%s free", key)
	}
	pttl, err := l.askOne(ctx, v, t, []string{"PTTL", key})
	if err != nil {
		return "no answer: " + err.Error()
	}
	return check.Say("%s = %s (PTTL %d)", key, get.Str, pttl.Int)
}

// askOne sends args to node t: at once, or in its turn at v's gate.
func (l *Lab) askOne(ctx context.Context, v via, t target, args []string) (resp.Reply, error) {
	if v.gate == nil {
		return ask(ctx, t.to, v.conn, v.timeout, args)
	}
	a := v.askAt(ctx, l, t.name, args)
	return a.Reply, a.Err
}
