package session

import (
	"context"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/resp"
)

// probe is how a command touching lock keys is sent so that the annotator
// can tell the truth: inside one MULTI ... EXEC, the keys' values and
// PTTLs are read just before and just after the command, atomically with
// it. The reply shown is still the command's own.
type probe struct {
	before, after []string // keys read before / after the command
}

// planProbe says whether and how to probe args: a SET ... NX (read the key
// after: who holds it, how long is left), a DEL or UNLINK of lock keys
// (read before: whose lock is deleted), an EVAL/EVALSHA on lock keys (read
// before and after: released or kept).
func planProbe(args []string, isLock func(string) bool) (probe, bool) {
	if key, _, _, ok := check.IsSetNX(args); ok {
		return probe{after: []string{key}}, true
	}
	switch strings.ToUpper(args[0]) {
	case "DEL", "UNLINK":
		keys := lockKeys(args[1:], isLock)
		return probe{before: keys}, len(keys) > 0
	case "EVAL", "EVALSHA":
		all, _, _ := check.EvalKeys(args)
		keys := lockKeys(all, isLock)
		return probe{before: keys, after: keys}, len(keys) > 0
	}
	return probe{}, false
}

func lockKeys(keys []string, isLock func(string) bool) []string {
	var out []string
	for _, k := range keys {
		if isLock(k) {
			out = append(out, k)
		}
	}
	return out
}

// batch is the pipeline that carries the probe: MULTI, GET/PTTL per key
// before, the command, GET/PTTL per key after, EXEC.
func (p probe) batch(args []string) [][]string {
	out := [][]string{{"MULTI"}}
	for _, k := range p.before {
		out = append(out, []string{"GET", k}, []string{"PTTL", k})
	}
	out = append(out, args)
	for _, k := range p.after {
		out = append(out, []string{"GET", k}, []string{"PTTL", k})
	}
	return append(out, []string{"EXEC"})
}

// read takes EXEC's reply apart into the command's reply and the states.
// ok is false when the transaction did not run (EXECABORT: the command
// had bad arguments); the caller then sends the command alone for its
// real error.
func (p probe) read(exec resp.Reply) (reply resp.Reply, before, after []check.KeyState, ok bool) {
	n := 2*len(p.before) + 1 + 2*len(p.after)
	if exec.Kind != resp.Array || len(exec.Elems) != n {
		return resp.Reply{}, nil, nil, false
	}
	before = keyStates(p.before, exec.Elems)
	reply = exec.Elems[2*len(p.before)]
	after = keyStates(p.after, exec.Elems[2*len(p.before)+1:])
	return reply, before, after, true
}

func keyStates(keys []string, elems []resp.Reply) []check.KeyState {
	out := make([]check.KeyState, len(keys))
	for i, k := range keys {
		get, pttl := elems[2*i], elems[2*i+1]
		out[i] = check.KeyState{Key: k, Exists: get.Kind == resp.Bulk, Value: get.Str, PTTL: time.Duration(pttl.Int) * time.Millisecond}
	}
	return out
}

// doProbed sends args on c, probed when p says so. It returns the event
// with the reply and, when probed, the key states.
func doProbed(ctx context.Context, c *Conn, args []string, p probe, probed bool) (Event, error) {
	e := Event{Args: args, Start: time.Now()}
	if probed {
		replies, err := c.DoBatch(ctx, p.batch(args))
		if err != nil {
			e.End, e.Err = time.Now(), err
			return e, err
		}
		if reply, before, after, ok := p.read(replies[len(replies)-1]); ok {
			e.Reply, e.Before, e.After, e.End = reply, before, after, time.Now()
			return e, nil
		}
	}
	reply, err := c.Do(ctx, args)
	e.Reply, e.Err, e.End = reply, err, time.Now()
	return e, err
}
