package explore

import (
	"container/heap"
	"context"
	"slices"
	"sync"
)

// The search runs schedules on several workers at once, yet finds what
// the depth-first search one schedule at a time finds, in its order.
// Depth-first order is the lexicographic order of the schedules' choice
// lists (the next schedule bumps the deepest choice with an option left),
// and every choice list with a given prefix lies in one interval of it.
// So a task is a prefix: its run is the first schedule of its subtree,
// and the choice points it meets past the prefix give the subtrees that
// follow it, each a task. Workers always take the smallest pending
// prefix; a bounded search keeps only the schedules before every
// pending prefix (all of them run), in order, up to the bound: the same
// schedules as one worker would run, whatever the timing.

// pool runs a search's tasks on its workers.
type pool struct {
	ctx context.Context
	sc  Script
	o   Options
	b   Bound

	mu      sync.Mutex
	cond    *sync.Cond
	pending prefixes        // tasks not taken, smallest first
	running [][]int         // the prefixes being run
	done    []*outcome      // schedules run, in any order
	seen    map[string]seen // what each pending task's parent ran before its choice point
	steps   int             // over done
	err     error
	stopped bool // enough has run for the bound, or an error came
}

// search runs the pool's tasks from the empty prefix until every
// schedule ran or the bound is met, and returns the schedules to count,
// in depth-first order, and whether none is left.
func (p *pool) search(workers int) ([]*outcome, bool, error) {
	p.cond = sync.NewCond(&p.mu)
	p.seen = map[string]seen{}
	heap.Push(&p.pending, []int(nil))
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(p.work)
	}
	wg.Wait()
	if p.err != nil {
		return nil, false, p.err
	}
	slices.SortFunc(p.done, func(a, b *outcome) int { return slices.Compare(a.picks, b.picks) })
	if len(p.pending) == 0 {
		return p.done, true, nil
	}
	return p.before(p.pending[0]), false, nil
}

// work runs tasks until none is left or the search stopped.
func (p *pool) work() {
	for {
		prefix, ok := p.take()
		if !ok {
			return
		}
		out, err := runOnce(p.ctx, p.sc, p.o.plan(prefix))
		p.finish(prefix, out, err)
	}
}

// take waits for a task; it reports false when the search is over.
func (p *pool) take() ([]int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) == 0 && len(p.running) > 0 && !p.stopped {
		p.cond.Wait()
	}
	if p.stopped || len(p.pending) == 0 || p.ctx.Err() != nil {
		p.cond.Broadcast()
		return nil, false
	}
	prefix := heap.Pop(&p.pending).([]int)
	p.running = append(p.running, prefix)
	return prefix, true
}

// finish keeps a task's schedule and queues the subtrees it found: at
// each choice point past the prefix, every option after the first.
func (p *pool) finish(prefix []int, out *outcome, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.cond.Broadcast()
	p.running = slices.DeleteFunc(p.running, func(r []int) bool { return slices.Equal(r, prefix) })
	if p.ctx.Err() != nil && err != nil {
		heap.Push(&p.pending, prefix) // stopped (Ctrl-C): it did not run, and what follows does not count
		p.stopped = true
		return
	}
	if err == nil {
		err = p.replayed(prefix, out)
	}
	if err != nil {
		p.err, p.stopped = cmpErr(p.err, err), true
		return
	}
	out.picks = picks(out.choices)
	p.done = append(p.done, out)
	p.steps += len(out.steps)
	for i := len(prefix); i < len(out.choices); i++ {
		for k := 1; k < out.choices[i].N; k++ {
			next := append(slices.Clone(out.picks[:i]), k)
			heap.Push(&p.pending, next)
			p.seen[joinInts(next)] = seen{steps: out.steps[:out.choices[i].At], opts: out.choices[i].Opts, pick: k}
		}
	}
	p.stopped = p.stopped || p.enough()
}

// cmpErr keeps the first error.
func cmpErr(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// enough reports whether the schedules before every pending or running
// prefix meet the bound: no later run can change what the search counts.
func (p *pool) enough() bool {
	if len(p.pending) == 0 || (len(p.done) < p.b.Schedules && p.steps < p.b.Steps) {
		return false
	}
	frontier := p.pending[0]
	for _, r := range p.running {
		if slices.Compare(r, frontier) < 0 {
			frontier = r
		}
	}
	r := &Result{Groups: map[string]int{}}
	for _, o := range p.before(frontier) {
		if r.add(o); p.b.reached(r) != "" {
			return true
		}
	}
	return false
}

// before is the schedules run whose choice lists come before prefix, in
// depth-first order (p.done sorted, or not: it sorts a copy).
func (p *pool) before(prefix []int) []*outcome {
	var out []*outcome
	for _, o := range p.done {
		if slices.Compare(o.picks, prefix) < 0 {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b *outcome) int { return slices.Compare(a.picks, b.picks) })
	return out
}

// prefixes is a heap of tasks, the smallest prefix first.
type prefixes [][]int

func (h prefixes) Len() int           { return len(h) }
func (h prefixes) Less(i, j int) bool { return slices.Compare(h[i], h[j]) < 0 }
func (h prefixes) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *prefixes) Push(x any)        { *h = append(*h, x.([]int)) }
func (h *prefixes) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
