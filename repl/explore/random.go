package explore

import (
	"context"
	"errors"
	"fmt"
	"iter"
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
	var first *outcome
	var err error
	if !awaitOrLeave(ctx, func() {
		first, err = o.run(ctx, sc, plan{Plan: sched.Plan{Chooser: s.Chooser()}, oracle: o.Oracle, faults: o.faultsOf()})
	}) {
		return nil, ctx.Err() // stopped, and the first draw did not end (see stopGrace)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next, results, left := make(chan int), make(chan drawn), make(chan struct{})
	var wg sync.WaitGroup
	for range o.workers() {
		wg.Go(func() {
			for i := range next {
				out, err := o.run(ctx, sc, plan{Plan: sched.Plan{Chooser: s.Sample(o.Seed, i, len(first.steps))}, oracle: o.Oracle, faults: o.faultsOf()})
				select {
				case results <- drawn{i, out, err}:
				case <-left: // the count stopped reading
				}
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
	go func() {
		if awaitOrLeave(ctx, wg.Wait) {
			close(results)
		} else {
			close(left) // a stopped sample did not end (see stopGrace)
		}
	}()
	return countSamples(o, s.Samples(), results, left, ctx.Err, cancel, visit)
}

// countSamples counts the distinct schedules among the samples (n were
// drawn), in the order they were drawn, up to the first that did not run
// (an error, which stops the others, or Ctrl-C). It reads results until
// they are closed, or until left is (a stopped sample that did not end);
// why is why the draws stopped short, when no sample said.
func countSamples(o Options, samples int, results <-chan drawn, left <-chan struct{}, why func() error, stop func(), visit func(*outcome)) (*Result, error) {
	r := &Result{Groups: map[string]int{}, Mode: o.mode(), opts: o}
	seen, held := map[string]bool{}, map[int]drawn{}
	n, stopped := 0, error(nil)
	for d := range receive(results, left) {
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
		if stopped = why(); stopped == nil { // the draws stopped between two samples, or one was left behind
			stopped = context.Canceled
		}
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

// receive yields what comes on results until it is closed, or left is.
func receive(results <-chan drawn, left <-chan struct{}) iter.Seq[drawn] {
	return func(yield func(drawn) bool) {
		for {
			select {
			case d, ok := <-results:
				if !ok || !yield(d) {
					return
				}
			case <-left:
				return
			}
		}
	}
}
