package probe

import (
	"strconv"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
)

// plan is which lock and slot keys to read around a command: the same
// keys before and after it, so that the annotator judges it by what it
// did to them.
type plan struct {
	keys  []string // the keys read, as the server names them
	slots []bool   // ... whether each is a slot (LLEN) rather than a lock (GET, PTTL)
	db    int      // the connection's database: a key is its database and name
}

// knows says what a key of the run is: a lock, a slot, or neither (0).
type knows func(key string) kind

type kind int

const (
	other kind = iota
	lockKey
	slotKey
)

// planFor says whether and how to probe args, from the command table
// (commands.Keys, commands.Writes), not from a list of names: a command
// (a read or a write) that names a lock or slot key reads those keys; a
// write that names no key but changes the database (FLUSHDB, FLUSHALL,
// SWAPDB: the table's keyless writes of the server group) reads every
// key the run knows. Anything else goes as it is.
func planFor(args []string, know knows, known []string) (plan, bool) {
	var p plan
	if c, _ := commands.Lookup(args); c != nil && (c.Is(commands.FlagNoMulti) || c.Group == "transactions") {
		return p, false // WATCH and the like cannot go in the probe's MULTI
	}
	keys := commands.Keys(args)
	if len(keys) == 0 && commands.DatabaseWide(args) {
		keys = known
	}
	for _, k := range keys {
		if kd := know(k); kd != other {
			p.keys, p.slots = append(p.keys, k), append(p.slots, kd == slotKey)
		}
	}
	return p, len(p.keys) > 0
}

// reads are the commands that read the plan's keys: GET and PTTL for a
// lock, LLEN for a slot.
func (p plan) reads() [][]string {
	var out [][]string
	for i, k := range p.keys {
		if p.slots[i] {
			out = append(out, []string{"LLEN", k})
			continue
		}
		out = append(out, []string{"GET", k}, []string{"PTTL", k})
	}
	return out
}

// batch is the pipeline that carries the probe: MULTI, the reads before,
// the command, TIME (the server's clock: when it ran the command), the
// reads after, EXEC.
func (p plan) batch(args []string) [][]string {
	out := append([][]string{{"MULTI"}}, p.reads()...)
	out = append(out, args, []string{"TIME"})
	out = append(out, p.reads()...)
	return append(out, []string{"EXEC"})
}

// read takes EXEC's reply apart into the command's reply and the states.
// ok is false when the transaction did not run (EXECABORT: the command
// had bad arguments); the caller then sends the command alone for its
// real error.
func (p plan) read(exec resp.Reply) (reply resp.Reply, states States, ok bool) {
	n := len(p.reads())
	if exec.Kind != resp.Array || len(exec.Elems) != 2*n+2 {
		return resp.Reply{}, States{}, false
	}
	states.Before = p.states(exec.Elems[:n])
	reply = exec.Elems[n]
	states.Served = serverTime(exec.Elems[n+1])
	states.After = p.states(exec.Elems[n+2:])
	states.DB = p.db
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

// states reads the replies of the plan's reads, in order.
func (p plan) states(elems []resp.Reply) []check.KeyState {
	out := make([]check.KeyState, len(p.keys))
	i := 0
	for j, k := range p.keys {
		if p.slots[j] {
			n := elems[i].Int
			out[j] = check.KeyState{Key: k, Slot: true, Exists: n > 0, Len: n, PTTL: -1}
			i++
			continue
		}
		get, pttl := elems[i], elems[i+1]
		out[j] = check.KeyState{Key: k, Exists: get.Kind == resp.Bulk, Value: get.Str, PTTL: time.Duration(pttl.Int) * time.Millisecond}
		i += 2
	}
	return out
}
