package probe

import (
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// plan is which lock keys to read around a command.
type plan struct {
	before, after []string // keys read before / after the command
}

// planFor says whether and how to probe args: a SET ... NX (read the key
// after: who holds it, how long is left), a DEL or UNLINK of lock keys
// (read before: whose lock is deleted), an EVAL/EVALSHA on lock keys (read
// before and after: released or kept).
func planFor(args []string, isLock func(string) bool) (plan, bool) {
	if key, _, _, ok := lockargs.IsSetNX(args); ok {
		return plan{after: []string{key}}, true
	}
	switch strings.ToUpper(args[0]) {
	case "DEL", "UNLINK":
		keys := lockKeys(args[1:], isLock)
		return plan{before: keys}, len(keys) > 0
	case "EVAL", "EVALSHA":
		all, _, _ := lockargs.EvalKeys(args)
		keys := lockKeys(all, isLock)
		return plan{before: keys, after: keys}, len(keys) > 0
	}
	return plan{}, false
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
// before, the command, TIME (the server's clock: when it ran the
// command), GET/PTTL per key after, EXEC.
func (p plan) batch(args []string) [][]string {
	out := [][]string{{"MULTI"}}
	for _, k := range p.before {
		out = append(out, []string{"GET", k}, []string{"PTTL", k})
	}
	out = append(out, args, []string{"TIME"})
	for _, k := range p.after {
		out = append(out, []string{"GET", k}, []string{"PTTL", k})
	}
	return append(out, []string{"EXEC"})
}

// read takes EXEC's reply apart into the command's reply and the states.
// ok is false when the transaction did not run (EXECABORT: the command
// had bad arguments); the caller then sends the command alone for its
// real error.
func (p plan) read(exec resp.Reply) (reply resp.Reply, states States, ok bool) {
	n := 2*len(p.before) + 2 + 2*len(p.after)
	if exec.Kind != resp.Array || len(exec.Elems) != n {
		return resp.Reply{}, States{}, false
	}
	states.Before = keyStates(p.before, exec.Elems)
	reply = exec.Elems[2*len(p.before)]
	states.Served = serverTime(exec.Elems[2*len(p.before)+1])
	states.After = keyStates(p.after, exec.Elems[2*len(p.before)+2:])
	return reply, states, true
}

// serverTime reads TIME's reply (seconds and microseconds, as bulk
// strings); the zero time when it is not one.
func serverTime(r resp.Reply) time.Time {
	if r.Kind != resp.Array || len(r.Elems) != 2 {
		return time.Time{}
	}
	sec, err1 := strconv.ParseInt(r.Elems[0].Str, 10, 64)
	usec, err2 := strconv.ParseInt(r.Elems[1].Str, 10, 64)
	if err1 != nil || err2 != nil {
		return time.Time{}
	}
	return time.Unix(sec, usec*1000)
}

func keyStates(keys []string, elems []resp.Reply) []check.KeyState {
	out := make([]check.KeyState, len(keys))
	for i, k := range keys {
		get, pttl := elems[2*i], elems[2*i+1]
		out[i] = check.KeyState{Key: k, Exists: get.Kind == resp.Bulk, Value: get.Str, PTTL: time.Duration(pttl.Int) * time.Millisecond}
	}
	return out
}
