package sched

import (
	"errors"
	"slices"
)

// Plan is how one schedule is chosen: the choice list to replay, and the
// search's rules.
type Plan struct {
	Prefix      []int
	Reduce      bool // sleep sets: one order of commuting steps
	Preemptions int  // at most so many preemptions (-1: no bound)
	PCT         *PCT // random priorities after the prefix (a random search)
}

// ErrEquivalent cuts a schedule whose every next step is asleep: any way
// it could go on is one that another schedule of the search runs, with
// commuting steps in another order.
var ErrEquivalent = errors.New("equivalent to a schedule explored elsewhere")

// fallAsleep keeps the sleep set (Godefroid's sleep sets): the commands
// chosen before t at this choice point are explored first, in schedules
// of their own, so after t each of them sleeps while it commutes with
// every step since. A sleeping command that a later step conflicts with
// wakes (is dropped from the set). Without reduction, nothing sleeps.
func (s *Sched) fallAsleep(before []*ticket, t *ticket) {
	if !s.plan.Reduce {
		return
	}
	var next []*ticket
	for _, u := range slices.Concat(s.asleep, before) {
		if u != t && u.acc.Commutes(t.acc) && !slices.Contains(next, u) {
			next = append(next, u)
		}
	}
	s.asleep = next
}

// bound keeps a search within its preemption bound (CHESS): once the
// schedule has preempted as often as allowed, the session that went last
// goes on while it can.
func (s *Sched) bound(can []*ticket) []*ticket {
	if s.plan.Preemptions < 0 || s.preempts < s.plan.Preemptions {
		return can
	}
	if i := s.lastIn(can); i >= 0 {
		return can[i : i+1]
	}
	return can
}

// countPreemption counts t as a preemption when the session that went
// last could have gone on.
func (s *Sched) countPreemption(can []*ticket, t *ticket) {
	if t.name != s.lastName && s.lastIn(can) >= 0 {
		s.preempts++
	}
}

// lastIn is the index in can of the command of the session that went
// last, or -1.
func (s *Sched) lastIn(can []*ticket) int {
	return slices.IndexFunc(can, func(u *ticket) bool { return u.name == s.lastName })
}
