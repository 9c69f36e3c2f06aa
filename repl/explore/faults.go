package explore

import (
	"fmt"
	"io"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/explore/sched"
)

// timeFaults are the faults a schedule of `explore --faults K` may
// choose, at most max of them, on server e, each said on out as it
// happens: time running on, while no session runs, to the moment the
// first key's TTL runs out (a process pause, a GC, a slow network: a
// lock's holder that stops between two steps for as long as its lock
// has left). The fault is offered only while some key has a TTL: with
// none, time running on changes nothing the server holds, and the
// sleepers' own deadlines are the scheduler's to reach.
func timeFaults(max int, e *server.Embedded, out io.Writer) sched.Faults {
	offer := func() []sched.Fault {
		next, ok := e.NextExpiry()
		if !ok {
			return nil
		}
		return []sched.Fault{{Line: "time +" + next.Left.String(), Advance: next.Left, Note: expiryNote(next)}}
	}
	told := func(f sched.Fault) { fmt.Fprintf(out, "%s %s\n", sched.FaultSession, f.Note) } // a whole line: out writes it at once
	return sched.Faults{Max: max, Offer: offer, Happened: told}
}

// expiryNote says the time fault that lets next expire, as the
// transcript's line.
func expiryNote(next server.Expiry) string {
	where := ""
	if next.DB != 0 {
		where = fmt.Sprintf(" (database %d)", next.DB)
	}
	return fmt.Sprintf("time runs on %v while no session runs (a pause): %s's TTL runs out%s",
		next.Left, next.Key, where)
}

// faultsMode is what the summary's mode says of --faults: ", at most 1
// fault a schedule", or "".
func (o Options) faultsMode() string {
	switch o.Faults {
	case 0:
		return ""
	case 1:
		return ", at most 1 fault a schedule"
	}
	return fmt.Sprintf(", at most %d faults a schedule", o.Faults)
}
