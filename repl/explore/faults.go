package explore

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/explore/order"
	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/check"
)

// faultKind is a kind of fault `explore --faults K` chooses among, by
// the name --fault-kinds gives it: what it offers at a turn of a
// schedule (nothing when it could change nothing there).
type faultKind struct {
	name, help string
	offer      func(r faultRig, can []*sched.Cmd) []sched.Fault
}

// faultRig is what a schedule's faults act on: its server, and its run
// (the lab's side: its checker and record, told what a fault did, and its
// Redlock nodes).
type faultRig struct {
	server *server.Embedded
	run    *lab.Run
}

// faultKinds are the kinds, in the order a turn offers them.
var faultKinds = []faultKind{
	{"time", "time runs on to the next key's expiry while no session runs (a pause)", timeFault},
	{"restart", "the server restarts empty, as with no persistence: every key and script gone", restartFault},
	{"lost-reply", "a write the server runs whose reply never reaches its session", lostReplyFaults},
	{"clock-jump", "a Redlock node's clock jumps to the moment its next key expires", clockJumpFaults},
}

// faultKindNames are the kinds' names, for --fault-kinds and its errors.
func faultKindNames() []string {
	names := make([]string, len(faultKinds))
	for i, k := range faultKinds {
		names[i] = k.name
	}
	return names
}

// readFaultKinds reads --fault-kinds restart,time: the kinds named, in
// the order faultKinds has them ("" when it names them all, as its
// absence does).
func readFaultKinds(list string) (string, error) {
	given := strings.Split(list, ",")
	var kinds []string
	for _, k := range given {
		if !slices.Contains(faultKindNames(), k) {
			return "", fmt.Errorf("--fault-kinds %s: %q is none of %s", list, k, strings.Join(faultKindNames(), ", "))
		}
	}
	for _, k := range faultKindNames() {
		if slices.Contains(given, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == len(faultKinds) {
		return "", nil
	}
	return strings.Join(kinds, ","), nil
}

// faultsOf are the faults a schedule of o may choose, on r, each said
// on out as it happens (nil: none).
func (o Options) faultsOf() func(r faultRig, out io.Writer) sched.Faults {
	if o.Faults == 0 {
		return nil
	}
	return o.injected
}

// injected are the faults a schedule of o may choose, on r, each said on
// out as it happens.
func (o Options) injected(r faultRig, out io.Writer) sched.Faults {
	kinds := o.kinds()
	offer := func(can []*sched.Cmd) []sched.Fault {
		var all []sched.Fault
		for _, k := range faultKinds {
			if slices.Contains(kinds, k.name) {
				all = append(all, k.offer(r, can)...)
			}
		}
		return all
	}
	told := func(f sched.Fault, at time.Time) {
		fmt.Fprintf(out, "%s %s\n", sched.FaultSession, f.Note) // a whole line: out writes it at once
		r.run.Injected(at, "fault", sched.FaultSession+" "+f.Line, f.Note)
	}
	return sched.Faults{Max: o.Faults, Offer: offer, Happened: told}
}

// kinds are the fault kinds o chooses among.
func (o Options) kinds() []string {
	if o.FaultKinds == "" {
		return faultKindNames()
	}
	return strings.Split(o.FaultKinds, ",")
}

// timeFault is time running on, while no session runs, to the moment the
// first key's TTL runs out, on the lab's server or a Redlock node (a
// process pause, a GC, a slow network: a lock's holder that stops
// between two steps for as long as its lock has left). It is offered
// only while some key has a TTL: with none, time running on changes
// nothing the servers hold, and the sleepers' own deadlines are the
// scheduler's to reach.
func timeFault(r faultRig, _ []*sched.Cmd) []sched.Fault {
	next, ok := r.server.NextExpiry()
	where := ""
	if next.DB != 0 {
		where = fmt.Sprintf(" (database %d)", next.DB)
	}
	for _, n := range r.run.Redlock().Expiries() {
		if !ok || n.Left < next.Left {
			next, ok, where = n.Expiry, true, " on node "+n.Node
		}
	}
	if !ok {
		return nil
	}
	return []sched.Fault{{Line: "time +" + next.Left.String(), Advance: next.Left, Saved: order.PauseStep(next.Left),
		Note: fmt.Sprintf("time runs on %v while no session runs (a pause): %s's TTL runs out%s", next.Left, next.Key, where)}}
}

// restartFault is the server, or a Redlock node, restarting with no
// persistence: every key and script gone, the sessions' connections
// taken as reconnected at once; for the lab's server the checker hears
// that the locks held then were lost (TWO HOLDERS when another client
// takes one), and a node's lost grants show in Redlock's own verdict. It
// is offered for each server that holds a key: an empty server's restart
// would lose nothing but its scripts.
func restartFault(r faultRig, _ []*sched.Cmd) []sched.Fault {
	var out []sched.Fault
	if r.server.KeyCount() > 0 {
		restart := func(at time.Time) error {
			if err := r.server.RestartEmpty(); err != nil {
				return err
			}
			r.run.Lost(at, check.LostInRestart)
			return nil
		}
		out = append(out, sched.Fault{Line: "restart", Saved: order.RestartStep, Do: restart,
			Note: "the server restarts empty (no persistence): every key and script is gone"})
	}
	lab := r.run.Redlock()
	for _, node := range lab.Holding() {
		out = append(out, sched.Fault{Line: "restart " + node, Saved: order.NodeRestartStep(node),
			Do:   func(at time.Time) error { return lab.RestartEmpty(node, at, r.run.Recorder()) },
			Note: fmt.Sprintf("node %s restarts empty (no persistence): the locks it granted are gone", node)})
	}
	return out
}

// clockJumpFaults are, for each Redlock node holding a key with a TTL,
// its clock jumping ahead to the moment that key expires (a clock
// corrected by NTP, set by hand): the node's keys run out early, and
// nothing else moves.
func clockJumpFaults(r faultRig, _ []*sched.Cmd) []sched.Fault {
	var out []sched.Fault
	lab := r.run.Redlock()
	for _, n := range lab.Expiries() {
		out = append(out, sched.Fault{Line: fmt.Sprintf("clock jump %s +%v", n.Node, n.Left), Saved: order.JumpStep(n.Node, n.Left),
			Do:   func(at time.Time) error { return lab.JumpAt(n.Node, n.Left, at, r.run.Recorder()) },
			Note: fmt.Sprintf("node %s's clock jumps %v ahead: %s's TTL there runs out early", n.Node, n.Left, n.Key)})
	}
	return out
}

// lostReplyFaults are, for each command that may go and writes (Redis's
// table does not call it read-only), that command going with its reply
// lost: the server runs it, and its session gets an error instead of the
// answer, as a client whose read timed out would (a SET NX that took the
// lock, taken for a failure; a release that released, taken for one that
// did not). A lost read is left out: it changes nothing on the server;
// so is a command to a Redlock node that is down: it will not be sent.
func lostReplyFaults(r faultRig, can []*sched.Cmd) []sched.Fault {
	var out []sched.Fault
	for _, c := range can {
		if cmd, _ := commands.Lookup(c.Args); cmd == nil || cmd.Is(commands.FlagReadonly) || c.Server != "" && !r.run.Redlock().IsUp(c.Server) {
			continue
		}
		out = append(out, sched.Fault{Line: "lost reply: " + c.Step(), Lose: c,
			Note: fmt.Sprintf("the reply to %s's %s is lost on the way back (the server runs it)", c.Session, c.Args[0])})
	}
	return out
}

// faultsMode is what the summary's mode says of --faults: ", at most 1
// fault a schedule", or "", and the kinds when --fault-kinds narrowed
// them.
func (o Options) faultsMode() string {
	if o.Faults == 0 {
		return ""
	}
	noun := "faults"
	if o.Faults == 1 {
		noun = "fault"
	}
	kinds := ""
	if o.FaultKinds != "" {
		kinds = " (" + strings.ReplaceAll(o.FaultKinds, ",", ", ") + ")"
	}
	return fmt.Sprintf(", at most %d %s%s a schedule", o.Faults, noun, kinds)
}
