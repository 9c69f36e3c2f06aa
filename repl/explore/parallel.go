package explore

import (
	"container/heap"
	"context"
	"slices"
	"sync"
	"time"
)

// The search runs schedules on several workers at once, yet finds what
// the depth-first search one schedule at a time finds, in its order.
// Depth-first order is the lexicographic order of the schedules' choice
// lists (the next schedule bumps the deepest choice with an option left),
// and every choice list with a given prefix lies in one interval of it.
// So a task is a prefix: its run is the first schedule of its subtree,
// and the choice points it meets past the prefix give the subtrees that
// follow it, each a task. Workers always take the smallest pending
// prefix. A schedule whose choice list comes before every pending and
// running prefix is final: no later run can come before it. The pool
// counts final schedules at once, in order, and lets them go; it stops
// when they meet the bound: the same schedules as one worker would run,
// whatever the timing, and memory that does not grow with their number.

// pool runs a search's tasks on its workers, and counts their schedules
// into r, showing each to visit.
type pool struct {
	ctx    context.Context
	cancel context.CancelFunc // ends ctx: called once the search stops
	sc     Script
	o      Options
	b      Bound
	r      *Result
	visit  func(*outcome)

	mu       sync.Mutex
	cond     *sync.Cond
	pending  prefixes        // tasks not taken, smallest first
	running  [][]int         // the prefixes being run
	held     []*outcome      // schedules run but not final yet, in any order: a worker's run past another's prefix
	peakHeld int             // the most held at once (TestMemoryFlat)
	seen     map[string]seen // what each pending task's parent ran before its choice point
	err      error
	stopped  bool // enough has run for the bound, or an error came
	left     bool // stopped, and the workers still running were left behind (see search)
}

// stopGrace is how long a stopped search (Ctrl-C, SIGTERM) waits for the
// schedules it is running to end. A schedule ends at once when told to,
// unless something in it waits on a turn that never comes (a bug): the
// search then returns what it counted and leaves that schedule behind,
// rather than ignoring the signal.
var stopGrace = 2 * time.Second

// search runs the pool's tasks from the empty prefix until every
// schedule ran and was counted, or the bound is met.
func (p *pool) search(workers int) error {
	ctx, cancel := context.WithCancel(p.ctx) // the pool's own stop (the bound, an error) ends what runs, too
	defer cancel()
	p.ctx, p.cancel = ctx, cancel
	p.cond = sync.NewCond(&p.mu)
	p.seen = map[string]seen{}
	heap.Push(&p.pending, []int(nil))
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(p.work)
	}
	if !awaitOrLeave(p.ctx, wg.Wait) {
		p.mu.Lock()
		p.left, p.stopped = true, true // a worker's late finish counts nothing
		p.cond.Broadcast()
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// awaitOrLeave runs wait to its end, or, once ctx is done, for stopGrace
// at most; it reports whether wait ended.
func awaitOrLeave(ctx context.Context, wait func()) bool {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-ctx.Done():
	}
	select {
	case <-done:
		return true
	case <-time.After(stopGrace):
		return false
	}
}

// work runs tasks until none is left or the search stopped.
func (p *pool) work() {
	for {
		prefix, ok := p.take()
		if !ok {
			return
		}
		out, err := p.o.run(p.ctx, p.sc, p.o.plan(prefix))
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

// finish queues the subtrees a task's schedule found (at each choice
// point past the prefix, every option after the first), and counts what
// is final.
func (p *pool) finish(prefix []int, out *outcome, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.cond.Broadcast()
	if p.left {
		return // the search returned without it
	}
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
		p.cancel()
		return
	}
	out.picks = picks(out.choices)
	for i := len(prefix); i < len(out.choices); i++ {
		for k := 1; k < out.choices[i].N; k++ {
			next := append(slices.Clone(out.picks[:i]), k)
			heap.Push(&p.pending, next)
			p.seen[joinInts(next)] = seen{steps: out.steps[:out.choices[i].At], opts: out.choices[i].Opts, pick: k}
		}
	}
	if p.r.Complete || p.r.Bounded != "" {
		return // past the bound: not counted
	}
	p.held = append(p.held, out)
	p.peakHeld = max(p.peakHeld, len(p.held))
	p.count()
}

// cmpErr keeps the first error.
func cmpErr(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// count counts the final schedules held, in depth-first order, and lets
// them go. It marks the result complete when the last schedule of all
// is counted, and stops the search once the bound is met.
func (p *pool) count() {
	frontier, open := p.frontier()
	slices.SortFunc(p.held, func(a, b *outcome) int { return slices.Compare(a.picks, b.picks) })
	n := 0
	for _, o := range p.held {
		if open && slices.Compare(o.picks, frontier) >= 0 {
			break
		}
		n++
		p.r.add(o)
		p.visit(o)
		if !open && n == len(p.held) {
			p.r.Complete = true
		} else if p.r.Bounded = p.b.reached(p.r); p.r.Bounded != "" {
			p.stopped, n = true, len(p.held)
			p.cancel() // what runs now is past the bound
			break
		}
	}
	clear(p.held[:n])
	p.held = p.held[n:]
}

// frontier is the smallest pending or running prefix, and whether there
// is one.
func (p *pool) frontier() ([]int, bool) {
	if len(p.pending) == 0 && len(p.running) == 0 {
		return nil, false
	}
	var frontier []int
	if len(p.pending) > 0 {
		frontier = p.pending[0]
	} else {
		frontier = p.running[0]
	}
	for _, r := range p.running {
		if slices.Compare(r, frontier) < 0 {
			frontier = r
		}
	}
	return frontier, true
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
