package sched

import (
	"fmt"
	"slices"
)

// Preempt is the preemption-bounded search (--preemptions K, CHESS):
// depth first over the raw schedules in which a session loses its turn
// while it could go on at most K times. Once a schedule has preempted K
// times, the session that went last goes on while it can.
type Preempt struct{ Bound int }

func (p Preempt) Mode() string {
	if p.Bound == 1 {
		return "within 1 preemption, raw"
	}
	return fmt.Sprintf("within %d preemptions, raw", p.Bound)
}

func (p Preempt) Flags() string    { return fmt.Sprintf("--preemptions %d ", p.Bound) }
func (p Preempt) Chooser() Chooser { return bounded{bound: p.Bound} }

// bounded is one schedule of a preemption-bounded search.
type bounded struct {
	first
	bound int
}

// Enabled keeps the last step's session alone, when it can go on and the
// schedule has preempted as often as allowed.
func (b bounded) Enabled(at Point, can []*Cmd) []*Cmd {
	if at.Preempts < b.bound {
		return can
	}
	if i := slices.IndexFunc(can, func(c *Cmd) bool { return c.Sender() == at.Last }); i >= 0 {
		return can[i : i+1]
	}
	return can
}
