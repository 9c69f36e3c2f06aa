package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"
)

// DefaultMemory is how much the process's heap objects and goroutine
// stacks may hold while a lab runs, unless LOCKLAB_MEMORY_MIB says
// otherwise.
const DefaultMemory = 1 << 30

// Memory is the budget in force: LOCKLAB_MEMORY_MIB (a whole number of
// MiB, at least 16) or DefaultMemory.
var Memory = sync.OnceValue(func() uint64 {
	if mib, err := strconv.ParseUint(os.Getenv("LOCKLAB_MEMORY_MIB"), 10, 32); err == nil && mib >= 16 {
		return mib << 20
	}
	return DefaultMemory
})

// every is how often the watcher looks at the memory.
const every = 10 * time.Millisecond

// ErrMemory is why a run over budget stopped.
var ErrMemory = errors.New("the run stopped: its values passed the lab's memory budget")

// Explain is ErrMemory's message with the budget and what to do.
func Explain() string {
	return fmt.Sprintf("%v of %d MiB (a string that grows in a loop?); LOCKLAB_MEMORY_MIB sets another budget", ErrMemory, Memory()>>20)
}

// guards are the runs being watched, each with its context and the
// cancel of it.
var guards = struct {
	sync.Mutex
	runs    map[*guard]bool
	watched bool
}{runs: map[*guard]bool{}}

type guard struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// Guard is ctx, cancelled with ErrMemory as its cause if the memory passes
// Memory() while it is guarded. release ends the guard without cancelling
// the context (background jobs may still run under it); a guard whose
// context ends is let go anyway.
func Guard(ctx context.Context) (guarded context.Context, release func()) {
	g := &guard{}
	g.ctx, g.cancel = context.WithCancelCause(ctx)
	guards.Lock()
	guards.runs[g] = true
	if !guards.watched {
		guards.watched = true
		debug.SetMemoryLimit(int64(Memory())) // the collector works harder near the budget: garbage does not pile up past it
		go watch()
	}
	guards.Unlock()
	return g.ctx, func() {
		guards.Lock()
		delete(guards.runs, g)
		guards.Unlock()
	}
}

// Over reports whether err is a run's end by the memory budget.
func Over(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrMemory) }

// watch looks at the memory every tick for the life of the process, and
// cancels every guarded run when it is over budget.
func watch() {
	for range time.Tick(every) {
		if letGoOfEnded() == 0 || inUse() <= Memory() {
			continue
		}
		runtime.GC() // what is garbage does not count
		if inUse() <= Memory() {
			continue
		}
		guards.Lock()
		for g := range guards.runs {
			g.cancel(ErrMemory)
		}
		guards.Unlock()
	}
}

// letGoOfEnded drops the guards whose context ended, and says how many
// are left.
func letGoOfEnded() int {
	guards.Lock()
	defer guards.Unlock()
	for g := range guards.runs {
		if g.ctx.Err() != nil {
			delete(guards.runs, g)
		}
	}
	return len(guards.runs)
}

var samples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}

// inUse is the bytes of heap objects and goroutine stacks now.
func inUse() uint64 {
	s := make([]metrics.Sample, len(samples))
	copy(s, samples)
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}
