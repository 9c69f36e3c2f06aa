package clock

import (
	"context"
	"sync"
	"time"
)

// Offset is another clock plus an offset that Jump moves: a node whose
// clock runs fast or slow, or was set forward, while the rest of the lab
// keeps the time it had. Waiting is the base clock's: a jump moves what
// Now reads, not how long a Sleep lasts.
type Offset struct {
	base   Clock
	mu     sync.Mutex
	offset time.Duration
}

var _ Clock = (*Offset)(nil)

// NewOffset is base with no offset yet.
func NewOffset(base Clock) *Offset { return &Offset{base: base} }

// Now is the base clock's time plus the offset.
func (o *Offset) Now() time.Time { return o.base.Now().Add(o.Get()) }

// Sleep waits on the base clock.
func (o *Offset) Sleep(ctx context.Context, d time.Duration) error { return o.base.Sleep(ctx, d) }

// Jump moves the clock d forward (d < 0: back) from now on.
func (o *Offset) Jump(d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.offset += d
}

// Get is the offset so far.
func (o *Offset) Get() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.offset
}
