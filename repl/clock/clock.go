package clock

import (
	"context"
	"time"
)

// Clock tells the time and waits.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// Sleep waits until d has passed, or ctx ends (its error is returned
	// then). A d <= 0 does not wait.
	Sleep(ctx context.Context, d time.Duration) error
}

// Real is the wall clock.
type Real struct{}

var (
	_ Clock = Real{}
	_ Clock = (*Virtual)(nil)
)

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// Sleep waits on a timer, or until ctx ends.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
