package explore

import (
	"context"
	"errors"
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

// drawn is sample i's schedule, or why it did not run.
type drawn struct {
	i   int
	out *outcome
	err error
}

// sample runs o.Random schedules, each with its own priorities, on the
// pool's workers, and counts each distinct schedule once. It holds only
// the samples that came back ahead of an earlier one, so N is not
// bounded by memory; Ctrl-C stops it with the samples counted so far.
func sample(ctx context.Context, sc Script, o Options, visit func(*outcome)) (*Result, error) {
	first, err := runOnce(ctx, sc, plan{preemptions: -1})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next, results := make(chan int), make(chan drawn)
	var wg sync.WaitGroup
	for range o.workers() {
		wg.Go(func() {
			for i := range next {
				out, err := runOnce(ctx, sc, plan{preemptions: -1, pct: newPCT(o.Seed, i, len(first.steps))})
				results <- drawn{i, out, err}
			}
		})
	}
	go func() {
		defer close(next)
		for i := 0; i < o.Random && ctx.Err() == nil; i++ {
			select {
			case next <- i:
			case <-ctx.Done():
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return countSamples(o, results, cancel, visit)
}

// countSamples counts the distinct schedules among the samples, in the
// order they were drawn, up to the first that did not run (an error,
// which stops the others, or Ctrl-C).
func countSamples(o Options, results <-chan drawn, stop func(), visit func(*outcome)) (*Result, error) {
	r := &Result{Groups: map[string]int{}, Mode: o.mode(), opts: o}
	seen, held := map[string]bool{}, map[int]drawn{}
	n, stopped := 0, error(nil)
	for d := range results {
		held[d.i] = d
		for d, ok := held[n]; ok && stopped == nil; d, ok = held[n] {
			delete(held, n)
			if stopped = d.err; stopped != nil {
				stop()
				break
			}
			n++
			if d.out.picks = picks(d.out.choices); !seen[fmt.Sprint(d.out.picks)] {
				seen[fmt.Sprint(d.out.picks)] = true
				r.add(d.out)
				visit(d.out)
			}
		}
	}
	switch {
	case stopped == nil:
		r.Bounded = fmt.Sprintf("%d random samples", o.Random)
	case errors.Is(stopped, context.Canceled) || errors.Is(stopped, context.DeadlineExceeded):
		r.Bounded = fmt.Sprintf("stopped after %d of %d random samples", n, o.Random)
		return r, stopped
	default:
		return nil, stopped
	}
	return r, nil
}

// pctMode names a random search in the summary.
func pctMode(o Options) string {
	return strings.Join([]string{fmt.Sprintf("seed %d", o.Seed), fmt.Sprintf("PCT depth %d", pctDepth), "raw"}, ", ")
}
