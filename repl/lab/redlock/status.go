package redlock

import (
	"context"
	"fmt"
	"io"

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
		out[i] = nodeState{target: t, offset: signed(l.nodes[i].clock.Get()), label: t.addr}
		if l.kind == Real {
			out[i].offset = "host"
		}
		if t.addr != "" && l.kind == Real {
			out[i].label = fmt.Sprintf("%s (pid %d)", t.addr, pid(l.nodes[i].srv))
		}
	}
	return out, l.key, nil
}

// status prints each node: up or down, its clock's offset, and the key's
// holder and PTTL as the node answers them.
func (l *Lab) status(ctx context.Context, w io.Writer, args []string) error {
	states, key, err := l.states()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		key = args[0]
	}
	for _, s := range states {
		if s.addr == "" {
			fmt.Fprintf(w, "  %s  down            clock %s\n", s.name, s.offset)
			continue
		}
		line := fmt.Sprintf("  %s  up %s  clock %s", s.name, s.label, s.offset)
		if key != "" {
			line += "  " + holding(ctx, s.addr, key)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// holding is key's value and PTTL on the node at addr.
func holding(ctx context.Context, addr, key string) string {
	get, err := ask(ctx, addr, "", Defaults.Timeout, []string{"GET", key})
	if err != nil {
		return "no answer: " + err.Error()
	}
	if get.Kind == resp.Nil {
		return check.Say("%s free", key)
	}
	pttl, err := ask(ctx, addr, "", Defaults.Timeout, []string{"PTTL", key})
	if err != nil {
		return "no answer: " + err.Error()
	}
	return check.Say("%s = %s (PTTL %d)", key, get.Str, pttl.Int)
}
