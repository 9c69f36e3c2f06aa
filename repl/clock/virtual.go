package clock

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Virtual is a clock whose time moves only when Advance or AdvanceToNext
// moves it; a Sleep waits until then. Sleepers wake one at a time, in the
// order of their deadlines (two with the same deadline: in the order they
// fell asleep). A driver that wakes them one by one (AdvanceToNext), each
// seeing Now() at its own deadline, gets the same run every time.
type Virtual struct {
	mu       sync.Mutex
	now      time.Time
	sleepers []*sleeper    // by deadline, then by the order they fell asleep
	changed  chan struct{} // closed (and replaced) whenever sleepers changes
}

type sleeper struct {
	deadline time.Time
	wake     chan struct{} // closed when the deadline is reached
}

// NewVirtual makes a virtual clock that reads start until advanced.
func NewVirtual(start time.Time) *Virtual {
	return &Virtual{now: start, changed: make(chan struct{})}
}

// Now is the virtual time.
func (v *Virtual) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Sleep waits until the virtual time reaches now+d, or ctx ends. A
// sleeper whose deadline came as ctx ended returns nil: its time came.
func (v *Virtual) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	s := v.add(d)
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		if v.remove(s) {
			return ctx.Err()
		}
		return nil
	}
}

// Advance moves the time d forward, waking every sleeper whose deadline
// it passes, in deadline order.
func (v *Virtual) Advance(d time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	target := v.now.Add(d)
	for len(v.sleepers) > 0 && !v.sleepers[0].deadline.After(target) {
		v.wakeFirstLocked()
	}
	v.now = target
}

// AdvanceToNext moves the time to the earliest sleeper's deadline and
// wakes that sleeper alone. It reports false, and moves nothing, when no
// one sleeps.
func (v *Virtual) AdvanceToNext() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.sleepers) == 0 {
		return false
	}
	v.wakeFirstLocked()
	return true
}

// Sleepers is how many Sleep calls are waiting.
func (v *Virtual) Sleepers() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.sleepers)
}

// WaitSleepers waits until at least n Sleep calls are waiting (so that an
// Advance reaches them), or ctx ends.
func (v *Virtual) WaitSleepers(ctx context.Context, n int) error {
	for {
		v.mu.Lock()
		count, changed := len(v.sleepers), v.changed
		v.mu.Unlock()
		if count >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (v *Virtual) add(d time.Duration) *sleeper {
	v.mu.Lock()
	defer v.mu.Unlock()
	s := &sleeper{deadline: v.now.Add(d), wake: make(chan struct{})}
	i := slices.IndexFunc(v.sleepers, func(o *sleeper) bool { return o.deadline.After(s.deadline) })
	if i < 0 {
		i = len(v.sleepers)
	}
	v.sleepers = slices.Insert(v.sleepers, i, s)
	v.notifyLocked()
	return s
}

// remove takes s off the sleepers, and reports whether it was still
// there (not woken).
func (v *Virtual) remove(s *sleeper) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	i := slices.Index(v.sleepers, s)
	if i < 0 {
		return false
	}
	v.sleepers = slices.Delete(v.sleepers, i, i+1)
	v.notifyLocked()
	return true
}

// wakeFirstLocked moves the time to the first sleeper's deadline (never
// back) and wakes it. v.mu is held.
func (v *Virtual) wakeFirstLocked() {
	s := v.sleepers[0]
	v.sleepers = v.sleepers[1:]
	if s.deadline.After(v.now) {
		v.now = s.deadline
	}
	close(s.wake)
	v.notifyLocked()
}

func (v *Virtual) notifyLocked() {
	close(v.changed)
	v.changed = make(chan struct{})
}
