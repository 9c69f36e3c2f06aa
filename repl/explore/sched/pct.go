package sched

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// PCTDepth is the depth of the random search (PCT, Burckhardt et al.
// 2010): each sample gives the sessions random priorities and lowers the
// running session's at depth-1 random steps, which finds a bug that
// needs d ordering constraints with probability at least 1/(n k^(d-1)).
const PCTDepth = 3

// PCT is the random search (--random N): N samples, each with its own
// priorities; a sample replays as a raw schedule.
type PCT struct{ N int }

func (p PCT) Mode() string   { return fmt.Sprintf("PCT depth %d, raw", PCTDepth) }
func (p PCT) Flags() string  { return fmt.Sprintf("--random %d ", p.N) }
func (PCT) Chooser() Chooser { return first{} }
func (p PCT) Samples() int   { return p.N }

// Sample is sample i's priorities, for schedules of about steps steps,
// from the search's seed.
func (PCT) Sample(seed uint64, i, steps int) Chooser {
	p := &priorities{rng: rand.New(rand.NewPCG(seed, uint64(i))), prio: map[string]int{}}
	for range PCTDepth - 1 {
		p.changes = append(p.changes, 1+p.rng.IntN(max(steps, 1)))
	}
	return p
}

// priorities picks, at each choice point, the waiting command of the
// session with the highest priority.
type priorities struct {
	first
	rng     *rand.Rand
	prio    map[string]int
	changes []int // steps after which the session that ran drops to the lowest priority
	low     int
}

// Pick chooses among opts (sorted) by priority; a session met for the
// first time gets a random one.
func (p *priorities) Pick(_ Point, opts []*Cmd) int {
	best := 0
	for i, c := range opts {
		if _, ok := p.prio[c.Sender()]; !ok {
			p.prio[c.Sender()] = 1 + p.rng.IntN(1<<30)
		}
		if p.prio[c.Sender()] > p.prio[opts[best].Sender()] {
			best = i
		}
	}
	return best
}

// Went lowers the priority of the session that took the step, at a
// change point.
func (p *priorities) Went(at Point, opts []*Cmd, pick int) {
	if slices.Contains(p.changes, at.Steps+1) {
		p.low--
		p.prio[opts[pick].Sender()] = p.low
	}
}
