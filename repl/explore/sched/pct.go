package sched

import (
	"math/rand/v2"
	"slices"
)

// PCTDepth is the depth of the random search (PCT, Burckhardt et al.
// 2010): each sample gives the sessions random priorities and lowers the
// running session's at depth-1 random steps, which finds a bug that
// needs d ordering constraints with probability at least 1/(n k^(d-1)).
const PCTDepth = 3

// PCT picks, at each choice point, the waiting command of the session
// with the highest priority.
type PCT struct {
	rng     *rand.Rand
	prio    map[string]int
	changes []int // steps after which the session that ran drops to the lowest priority
	low     int
}

// NewPCT is sample i's plan of priorities, for schedules of about steps
// steps, from the search's seed.
func NewPCT(seed uint64, i, steps int) *PCT {
	p := &PCT{rng: rand.New(rand.NewPCG(seed, uint64(i))), prio: map[string]int{}}
	for range PCTDepth - 1 {
		p.changes = append(p.changes, 1+p.rng.IntN(max(steps, 1)))
	}
	return p
}

// pick chooses among can (sorted) by priority; a session met for the
// first time gets a random one.
func (p *PCT) pick(can []*ticket) int {
	best := 0
	for i, t := range can {
		if _, ok := p.prio[t.name]; !ok {
			p.prio[t.name] = 1 + p.rng.IntN(1<<30)
		}
		if p.prio[t.name] > p.prio[can[best].name] {
			best = i
		}
	}
	return best
}

// stepped lowers the priority of the session that took step n, at a
// change point.
func (p *PCT) stepped(name string, n int) {
	if slices.Contains(p.changes, n) {
		p.low--
		p.prio[name] = p.low
	}
}
