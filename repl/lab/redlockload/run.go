package redlockload

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/backoff"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// maxTries is how many refusals in a row a worker takes before it gives
// up its cycle and the run (a node that will not come back).
const maxTries = 1000

// retryBackoff is the wait after a refusal (package backoff): at random
// below 1ms, then below a ceiling that doubles up to 32ms, drawn from the
// worker's generator seeded by --seed.
var retryBackoff = backoff.Backoff{Base: time.Millisecond, Cap: 32 * time.Millisecond}

// loadRun is one `load --redlock` run in progress.
type loadRun struct {
	lab    *redlock.Lab
	cfg    LoadConfig
	clock  clock.Clock
	opts   redlock.Options
	cycles atomic.Int64

	mu       sync.Mutex // guards what follows
	checker  *quorum.Checker
	rng      *rand.Rand
	stats    LoadStats
	firstErr error
}

// Run runs cfg on the lab's nodes: each worker's attempts and releases
// go to a checker of the run's own (repl/lab/quorum, as the run's verdict
// does), which counts the grants and the TWO HOLDERS.
func Run(ctx context.Context, l *redlock.Lab, c clock.Clock, cfg LoadConfig) (LoadStats, error) {
	nodes, err := l.Nodes()
	if err != nil {
		return LoadStats{}, err
	}
	if l.KindNow() == redlock.Real && cfg.JumpEvery > 0 {
		return LoadStats{}, redlock.ErrRealClock(nodes[0])
	}
	o := redlock.Defaults
	o.TTL = cfg.TTL
	r := &loadRun{lab: l, cfg: cfg, clock: c, opts: o, checker: quorum.New(), rng: rand.New(rand.NewPCG(cfg.Seed, 0))}
	r.stats = LoadStats{Config: cfg, Nodes: len(nodes), Kind: l.KindNow()}
	start := time.Now()
	var wg sync.WaitGroup
	for w := 1; w <= cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.worker(ctx, w)
		}()
	}
	wg.Wait()
	return r.finish(ctx, time.Since(start)), nil
}

// worker does its cycles: acquire (retrying after a refusal), the faults
// that are due (so that they hit a node while a worker holds the lock),
// work, release.
func (r *loadRun) worker(ctx context.Context, w int) {
	name := fmt.Sprintf("w%d", w)
	delays := rand.New(rand.NewPCG(r.cfg.Seed, uint64(w)))
	for i := 1; i <= r.cfg.Iterations && ctx.Err() == nil; i++ {
		token, err := r.acquire(ctx, name, i, delays)
		if err != nil {
			r.failed(ctx, err)
			return
		}
		r.faults(r.cycles.Add(1)) // while it holds the lock
		if r.clock.Sleep(ctx, r.cfg.Work) != nil {
			return
		}
		_, rel, err := r.lab.Release(ctx, r.clock, name, r.cfg.Key, token, r.opts)
		r.mu.Lock()
		r.checker.Released(rel)
		r.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// acquire runs Redlock until it grants the lock, and returns the token it
// was granted with.
func (r *loadRun) acquire(ctx context.Context, name string, i int, delays *rand.Rand) (string, error) {
	for try := 1; try <= maxTries; try++ {
		token := fmt.Sprintf("%s-%d-%d", name, i, try)
		a, err := r.lab.Acquire(ctx, r.clock, name, r.cfg.Key, token, r.opts)
		if a != nil {
			r.mu.Lock()
			r.checker.Acquired(a.Quorum())
			r.stats.Attempts++
			if a.Granted {
				r.stats.Sections++
			}
			r.mu.Unlock()
		}
		if err != nil || a.Granted {
			return token, err
		}
		// A random retry delay, as the docs advise, so that the workers
		// do not split the votes again at once; backing off, so that a
		// crowd of them does not flood the nodes while one holds it.
		if err := r.clock.Sleep(ctx, retryBackoff.Delay(try, delays)); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: no grant after %d attempts", name, maxTries)
}

// faults makes the faults due at the n-th grant: a random node's clock
// jumps past the TTL; a random node crashes and restarts empty.
func (r *loadRun) faults(n int64) {
	if r.cfg.JumpEvery > 0 && n%int64(r.cfg.JumpEvery) == 0 {
		node := r.pick()
		by := r.cfg.TTL + time.Millisecond
		if _, err := r.lab.Jump(node, by); err == nil {
			r.fault(quorum.Fault{Node: node, Kind: quorum.Jump, By: by}, &r.stats.Jumps)
		}
	}
	if r.cfg.CrashEvery > 0 && n%int64(r.cfg.CrashEvery) == 0 {
		node := r.pick()
		if r.lab.Crash(node) == nil {
			r.fault(quorum.Fault{Node: node, Kind: quorum.Crash}, &r.stats.Crashes)
			if err := r.lab.Restart(node, 0, r.clock, nil); err != nil {
				r.failed(context.Background(), err)
			}
		}
	}
}

// pick is a node, chosen by the run's seeded generator.
func (r *loadRun) pick() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(rune('A' + r.rng.IntN(r.stats.Nodes)))
}

func (r *loadRun) fault(f quorum.Fault, count *int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f.Lab, f.At = r.lab.Gen(), time.Now()
	r.checker.Fault(f)
	*count++
}

func (r *loadRun) failed(ctx context.Context, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstErr == nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		r.firstErr = err
	}
}

// finish counts what the checker found.
func (r *loadRun) finish(ctx context.Context, elapsed time.Duration) LoadStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	found, grants := r.checker.Findings(r.lab.Gen())
	s.Grants, s.Elapsed, s.Interrupted = int64(grants), elapsed, ctx.Err() != nil
	for _, f := range found {
		if f.Kind == check.TwoHolders {
			s.TwoHolders++
			if s.First == "" {
				s.First = f.Text
			}
		}
	}
	s.Missing = r.checker.Other().Missing
	if r.firstErr != nil {
		s.Err = r.firstErr.Error()
	}
	return s
}
