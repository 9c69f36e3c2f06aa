package sched

import (
	"slices"
	"time"

	"github.com/locklab/locklab/repl/explore/commute"
)

// FaultSession is the session a fault's step is filed under: no session
// sends it ("⚡ time +2s" among the steps; "⚡" on a saved schedule line).
const FaultSession = "⚡"

// Faults are the faults a schedule may choose, besides the waiting
// commands, at each turn (explore --faults K): at most Max in all, each
// one of those Offer lists at that point. A fault is one more option of
// the turn's choice point, after the commands, so a search walks every
// placement of at most Max faults between the steps, and a schedule's
// choice list replays them. Happened is told of each fault as it happens,
// between two steps (the transcript's line).
type Faults struct {
	Max      int
	Offer    func(can []*Cmd) []Fault    // the faults that could happen now, can the commands that may go; called with no command running
	Happened func(f Fault, at time.Time) // nil: nothing told; at is when, as events are stamped (see Stamp)
}

// Fault is something that happens to a run that no session asked for,
// between two steps: virtual time moves Advance on at once, with no step
// between, as a process pause, a GC or a slow network would let it (the
// sleepers whose time has come wake after it); and Do does what else it
// does (a server restarting empty). An error from Do stops the schedule.
type Fault struct {
	Line    string                   // as the steps name it: "time +2s", "restart"
	Note    string                   // as the transcript says it
	Saved   string                   // as a saved schedule's line names it (package order: "⚡2s")
	Advance time.Duration            // how far virtual time moves on
	Do      func(at time.Time) error // nil: nothing more; at is the fault's time as events are stamped (see Stamp)
	// Lose, when set, is one of the commands that may go: it goes now,
	// as a step of its own, and its session never gets the reply (see
	// ReplyLost), as when a client's read times out after the server ran
	// the command.
	Lose *Cmd
}

// faults is a schedule's fault state: what it may offer, how many have
// happened, and the faults offered at this turn with their options.
type faults struct {
	Faults
	happened int
	offered  []Fault
	cmds     []*Cmd
	losing   []string // the sessions whose command went with its reply to be lost
}

// InjectFaults lets the schedule choose f's faults (explore's --faults).
func (s *Sched) InjectFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.Faults = f
}

// withFaults is opts, the commands that may go, followed by the faults
// that may happen now, while fewer than Max have. A fault touches
// everything (it commutes with no command): a sleeping command wakes once
// it happened. Called with s.mu held.
func (s *Sched) withFaults(opts []*Cmd) []*Cmd {
	f := &s.faults
	if f.happened >= f.Max || f.Offer == nil {
		return opts
	}
	f.offered, f.cmds = f.Offer(opts), f.cmds[:0]
	if len(f.offered) == 0 {
		return opts
	}
	for _, o := range f.offered {
		f.cmds = append(f.cmds, &Cmd{Session: FaultSession, Line: o.Line, Access: commute.Of(nil, nil)})
	}
	return slices.Concat(opts, f.cmds)
}

// happen makes the offered fault c, one of opts, happen: a step of the
// schedule's own, after which virtual time moves on and the chooser hears
// that it did; or the command whose reply it loses goes. Called with
// s.mu held.
func (s *Sched) happen(opts []*Cmd, c *Cmd) {
	f := &s.faults
	fault := f.offered[slices.Index(f.cmds, c)]
	f.happened++
	if f.Happened != nil {
		f.Happened(fault, s.v.Now().Add(time.Duration(len(s.steps))))
	}
	if fault.Lose != nil {
		s.send(opts, fault.Lose)
		s.sched[len(s.sched)-1].Lost = true
		s.last = c.Step() // among the steps, the option that went: "⚡ lost reply: alice SET ..."
		s.steps[len(s.steps)-1] = s.last
		f.losing = append(f.losing, fault.Lose.Session)
		return
	}
	s.last, s.lastName, s.lastArgs = c.Step(), "", nil
	s.steps = append(s.steps, s.last)
	s.sched = append(s.sched, Step{Session: FaultSession, Line: c.Line, Saved: fault.Saved})
	if fault.Do != nil {
		if err := fault.Do(s.v.Now().Add(time.Duration(len(s.steps)))); err != nil {
			s.err = err
			return
		}
	}
	if fault.Advance > 0 {
		s.v.Advance(fault.Advance)
		s.moved = true
		s.chooser.Moved()
	}
}

// ReplyLost reports whether the reply of session name's command that has
// just gone is lost (a lost-reply fault chose it): the gate's middleware
// asks once the server answered (session.ReplyLoser).
func (s *Sched) ReplyLost(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.Index(s.faults.losing, name)
	if i < 0 {
		return false
	}
	s.faults.losing = slices.Delete(s.faults.losing, i, i+1)
	return true
}
