package sched

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// Drive lets the run's goroutines go one at a time until the script
// ends. It returns a *StuckError when the schedule cannot go on: nothing
// decided for StallAfter of wall-clock time, only polls left that nothing
// can change, or more than MaxSteps steps; and ctx's error as soon as ctx
// ends (a stopped search does not wait for a schedule it will not count:
// a job stopped before it began may never say it ended).
func (s *Sched) Drive(ctx context.Context) error {
	watchdog := time.AfterFunc(StallAfter, s.stall)
	defer watchdog.Stop()
	stop := context.AfterFunc(ctx, s.stopped(ctx))
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for s.active > 0 && s.err == nil {
			s.cond.Wait()
		}
		s.afterStep()
		stepped := s.err == nil && s.step()
		switch {
		case s.err != nil:
			return s.err
		case stepped:
			watchdog.Reset(StallAfter)
		case s.finished:
			return nil
		default:
			s.cond.Wait() // nothing waits on us yet: the script is ending
		}
	}
}

// stopped ends the schedule with ctx's error.
func (s *Sched) stopped(ctx context.Context) func() {
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.err == nil {
			s.err = ctx.Err()
		}
		s.cond.Broadcast()
	}
}

// stall stops a schedule that nothing moved on for StallAfter.
func (s *Sched) stall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.stalled()
	}
	s.cond.Broadcast()
}

// step lets one thing happen, when every goroutine waits on the
// scheduler: a job starts (by name), a sleeper whose time has come wakes
// (in the order they fell asleep), a session's command goes (the
// choice), or, when none can, virtual time moves to the next deadline.
// A poll that would only read again what it has just read waits for
// something else to happen first (see repeats). It reports false when
// nothing waits. Called with s.mu held.
func (s *Sched) step() bool {
	switch {
	case len(s.starts) > 0:
		sortTickets(s.starts)
		s.grant(&s.starts, 0)
	case len(s.sleepers) > 0 && !s.sleepers[0].deadline.After(s.v.Now()):
		s.grant(&s.sleepers, 0)
		s.wakes++
	case s.turn():
		s.wakes = 0
	case s.wakes >= MaxSteps:
		s.err = &StuckError{Step: len(s.steps), What: "the schedule", Why: "it slept " + itoa(MaxSteps) + " times with no command between: a loop that never ends?"}
	case len(s.sleepers) > 0:
		s.v.Advance(s.sleepers[0].deadline.Sub(s.v.Now()))
		s.moved = true
		s.chooser.Moved()
	case len(s.turns) > 0:
		s.err = s.spinning()
	default:
		return false
	}
	return true
}

// turn lets one waiting command go: the choice among those that are not
// repeats and that the chooser lets go, and the faults that may happen
// instead (see withFaults). It reports false when none waits but
// repeats. When neither a command nor a fault may go, the schedule is
// cut (ErrEquivalent).
func (s *Sched) turn() bool {
	sortTickets(s.turns)
	can := s.options()
	if len(can) == 0 {
		return false
	}
	at := Point{Steps: len(s.steps), Last: s.lastSender(), Preempts: s.preempts}
	opts := s.withFaults(s.chooser.Enabled(at, can))
	if len(opts) == 0 {
		s.err = ErrEquivalent
		return true
	}
	if len(s.steps) >= MaxSteps {
		s.err = &StuckError{Step: len(s.steps), What: "the schedule", Why: "it ran " + itoa(MaxSteps) + " steps and has not ended: a loop that never ends, or a script longer than explore runs (5,000 steps a schedule)?"}
		return true
	}
	pick := s.pick(at, opts)
	c := opts[pick]
	s.chooser.Went(at, opts, pick)
	if c.Session == FaultSession {
		s.happen(opts, c)
		return true
	}
	s.send(opts, c)
	return true
}

// send lets c, one of opts, go as the schedule's next step.
func (s *Sched) send(opts []*Cmd, c *Cmd) {
	s.countPreemption(opts, c)
	s.last, s.moved, s.lastName, s.lastFrom, s.lastArgs = c.Step(), false, c.Session, c.Sender(), c.Args
	s.steps = append(s.steps, s.last)
	s.sched = append(s.sched, Step{Session: c.Session, Line: c.Line})
	s.inflight = append(s.inflight, c)
	i := slices.IndexFunc(s.turns, func(t *ticket) bool { return &t.Cmd == c })
	s.turns[i].at = len(s.sched) - 1
	s.grant(&s.turns, i)
}

// options are the waiting commands that may go now, as far as the
// scheduler goes: all but a repeated poll (see repeats). The slice is
// reused from turn to turn.
func (s *Sched) options() []*Cmd {
	s.can = s.can[:0]
	for _, t := range s.turns {
		if !s.repeats(t) {
			s.can = append(s.can, &t.Cmd)
		}
	}
	return s.can
}

// grant lets the i-th ticket of list go, counting its goroutine active.
func (s *Sched) grant(list *[]*ticket, i int) {
	t := (*list)[i]
	*list = slices.Delete(*list, i, i+1)
	s.active++
	close(t.ok)
}

// pick chooses one of the commands the chooser lets go: the prefix's
// choice while it lasts, then the chooser's. A single command is no
// choice; a prefix's choice past the options is the last option, and the
// run diverged (the script does something the scheduler does not
// control).
func (s *Sched) pick(at Point, opts []*Cmd) int {
	n := len(opts)
	if n == 1 {
		return 0
	}
	var pick int
	if i := len(s.choices); i < len(s.prefix) {
		pick = s.prefix[i]
	} else {
		pick = s.chooser.Pick(at, opts)
	}
	if pick >= n {
		s.diverged, pick = true, n-1
	}
	s.choices = append(s.choices, Choice{Pick: pick, N: n, At: len(s.steps), Opts: stepsOf(opts)})
	return pick
}

// countPreemption counts c as a preemption when the session that went
// last (its sender: Cmd.Sender) could have gone on (was among opts),
// whatever the strategy: a failing schedule with fewer is shorter, and
// --json says how many.
func (s *Sched) countPreemption(opts []*Cmd, c *Cmd) {
	last := s.lastSender()
	if c.Sender() != last && slices.ContainsFunc(opts, func(o *Cmd) bool { return o.Sender() == last }) {
		s.preempts++
	}
}

// lastSender is the sender of the last step (Cmd.Sender), "" before the
// first or after a fault (which forgets the last step's session).
func (s *Sched) lastSender() string {
	if s.lastName == "" {
		return ""
	}
	return s.lastFrom
}

// stepsOf are the steps that waiting commands would be ("session
// command").
func stepsOf(cs []*Cmd) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Step()
	}
	return out
}

// sortTickets orders waiting goroutines by what they are, not by when
// they happened to arrive: session, then command, then arrival.
func sortTickets(ts []*ticket) {
	slices.SortFunc(ts, func(a, b *ticket) int {
		return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Line, b.Line), cmp.Compare(a.seq, b.seq))
	})
}
