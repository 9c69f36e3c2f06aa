package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// pctDepth is the depth of the random search (PCT, Burckhardt et al.
// 2010): each sample gives the sessions random priorities and lowers the
// running session's at depth-1 random steps, which finds a bug that
// needs d ordering constraints with probability at least 1/(n k^(d-1)).
const pctDepth = 3

// pct picks, at each choice point, the waiting command of the session
// with the highest priority.
type pct struct {
	rng     *rand.Rand
	prio    map[string]int
	changes []int // steps after which the session that ran drops to the lowest priority
	low     int
}

// newPCT is sample i's plan of priorities, for schedules of about steps
// steps, from the search's seed.
func newPCT(seed uint64, i, steps int) *pct {
	p := &pct{rng: rand.New(rand.NewPCG(seed, uint64(i))), prio: map[string]int{}}
	for range pctDepth - 1 {
		p.changes = append(p.changes, 1+p.rng.IntN(max(steps, 1)))
	}
	return p
}

// pick chooses among can (sorted) by priority; a session met for the
// first time gets a random one.
func (p *pct) pick(can []*ticket) int {
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
func (p *pct) stepped(name string, n int) {
	if slices.Contains(p.changes, n) {
		p.low--
		p.prio[name] = p.low
	}
}

// sample runs o.Random schedules, each with its own priorities, on the
// pool's workers, and counts each distinct schedule once.
func sample(ctx context.Context, sc Script, o Options, visit func(*outcome)) (*Result, error) {
	first, err := runOnce(ctx, sc, plan{preemptions: -1})
	if err != nil {
		return nil, err
	}
	outs := make([]*outcome, o.Random)
	errs := make([]error, o.Random)
	var wg sync.WaitGroup
	next := make(chan int)
	for range o.workers() {
		wg.Go(func() {
			for i := range next {
				outs[i], errs[i] = runOnce(ctx, sc, plan{preemptions: -1, pct: newPCT(o.Seed, i, len(first.steps))})
			}
		})
	}
	for i := range o.Random {
		next <- i
	}
	close(next)
	wg.Wait()
	return countSamples(o, outs, errs, visit)
}

// countSamples counts the distinct schedules among the samples, in the
// order they were drawn.
func countSamples(o Options, outs []*outcome, errs []error, visit func(*outcome)) (*Result, error) {
	r := &Result{Groups: map[string]int{}, Mode: o.mode(), opts: o}
	seen := map[string]bool{}
	for i, out := range outs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out.picks = picks(out.choices)
		key := fmt.Sprint(out.picks)
		if !seen[key] {
			seen[key] = true
			r.add(out)
			visit(out)
		}
	}
	r.Bounded = fmt.Sprintf("%d random samples", o.Random)
	return r, nil
}

// pctMode names a random search in the summary.
func pctMode(o Options) string {
	return strings.Join([]string{fmt.Sprintf("seed %d", o.Seed), fmt.Sprintf("PCT depth %d", pctDepth), "raw"}, ", ")
}
