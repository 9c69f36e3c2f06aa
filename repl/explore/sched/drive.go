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
		s.moved, s.asleep = true, nil // a moved clock may change what a sleeping command does
	case len(s.turns) > 0:
		s.err = s.spinning()
	default:
		return false
	}
	return true
}

// turn lets one waiting command go, the choice among those that are not
// repeats and not asleep; it reports false when there is none. When only
// sleeping commands could go, the schedule is cut (ErrEquivalent).
func (s *Sched) turn() bool {
	sortTickets(s.turns)
	can, sleeping := s.options()
	if len(can) == 0 {
		if sleeping {
			s.err = ErrEquivalent
		}
		return sleeping
	}
	if len(s.steps) >= MaxSteps {
		s.err = &StuckError{Step: len(s.steps), What: "the schedule", Why: "it ran " + itoa(MaxSteps) + " steps and has not ended: a loop that never ends, or a script longer than explore runs (5,000 steps a schedule)?"}
		return true
	}
	can = s.bound(can)
	pick := s.choose(can)
	t := can[pick]
	s.fallAsleep(can[:pick], t)
	s.countPreemption(can, t)
	s.last, s.moved, s.lastName, s.lastArgs = t.name+" "+t.what, false, t.name, t.args
	s.steps = append(s.steps, s.last)
	s.inflight = append(s.inflight, s.last)
	s.grant(&s.turns, slices.Index(s.turns, t))
	return true
}

// options are the waiting commands that may go now: not a repeated poll
// and not asleep. sleeping reports whether a command was left out only
// because it sleeps.
func (s *Sched) options() (can []*ticket, sleeping bool) {
	for _, t := range s.turns {
		switch {
		case s.repeats(t):
		case slices.Contains(s.asleep, t):
			sleeping = true
		default:
			can = append(can, t)
		}
	}
	return can, sleeping
}

// grant lets the i-th ticket of list go, counting its goroutine active.
func (s *Sched) grant(list *[]*ticket, i int) {
	t := (*list)[i]
	*list = slices.Delete(*list, i, i+1)
	s.active++
	close(t.ok)
}

// choose picks one of the waiting commands can: the prefix's choice
// while it lasts, then the first (or, in a random search, the one of
// the session with the highest priority). A single command is no
// choice.
func (s *Sched) choose(can []*ticket) int {
	n := len(can)
	if s.plan.PCT != nil {
		s.plan.PCT.stepped(s.lastName, len(s.steps))
	}
	if n == 1 {
		return 0
	}
	pick := 0
	switch at := len(s.choices); {
	case at < len(s.prefix):
		pick = s.prefix[at]
	case s.plan.PCT != nil:
		pick = s.plan.PCT.pick(can)
	}
	if pick >= n {
		s.diverged, pick = true, n-1
	}
	s.choices = append(s.choices, Choice{Pick: pick, N: n, At: len(s.steps), Opts: stepsOf(can)})
	return pick
}

// stepsOf are the steps that waiting commands would be ("session
// command").
func stepsOf(ts []*ticket) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.name + " " + t.what
	}
	return out
}

// sortTickets orders waiting goroutines by what they are, not by when
// they happened to arrive: session, then command, then arrival.
func sortTickets(ts []*ticket) {
	slices.SortFunc(ts, func(a, b *ticket) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.what, b.what), cmp.Compare(a.seq, b.seq))
	})
}
