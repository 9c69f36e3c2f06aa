package explore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/locklab/locklab/repl/explore/sched"
)

// drawn is sample i's schedule, or why it did not run.
type drawn struct {
	i   int
	out *outcome
	err error
}

// sample runs s's samples, each chosen its own way (PCT: its own
// priorities), on the pool's workers, and counts each distinct schedule
// once. It holds only the samples that came back ahead of an earlier
// one, so N is not bounded by memory; Ctrl-C stops it with the samples
// counted so far.
func sample(ctx context.Context, sc Script, o Options, s sched.Sampler, visit func(*outcome)) (*Result, error) {
	first, err := runOnce(ctx, sc, plan{Plan: sched.Plan{Chooser: s.Chooser()}, oracle: o.Oracle, faults: o.faultsOf()})
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
				out, err := runOnce(ctx, sc, plan{Plan: sched.Plan{Chooser: s.Sample(o.Seed, i, len(first.steps))}, oracle: o.Oracle, faults: o.faultsOf()})
				results <- drawn{i, out, err}
			}
		})
	}
	go func() {
		defer close(next)
		for i := 0; i < s.Samples() && ctx.Err() == nil; i++ {
			select {
			case next <- i:
			case <-ctx.Done():
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return countSamples(o, s.Samples(), results, cancel, visit)
}

// countSamples counts the distinct schedules among the samples (n were
// drawn), in the order they were drawn, up to the first that did not run
// (an error, which stops the others, or Ctrl-C).
func countSamples(o Options, samples int, results <-chan drawn, stop func(), visit func(*outcome)) (*Result, error) {
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
	if stopped == nil && n < samples {
		stopped = context.Canceled // the draws stopped between two samples
	}
	switch {
	case stopped == nil:
		r.Bounded = fmt.Sprintf("%d random samples", samples)
	case errors.Is(stopped, context.Canceled) || errors.Is(stopped, context.DeadlineExceeded):
		r.Bounded = fmt.Sprintf("stopped after %d of %d random samples", n, samples)
		return r, stopped
	default:
		return nil, stopped
	}
	return r, nil
}
