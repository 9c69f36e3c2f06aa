package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

var start = time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)

// sleep runs v.Sleep(ctx, d) in a goroutine; its result arrives on the
// channel when it returns.
func sleep(ctx context.Context, v *Virtual, d time.Duration) <-chan error {
	done := make(chan error, 1)
	go func() { done <- v.Sleep(ctx, d) }()
	return done
}

// wait waits until n sleepers are asleep, or fails the test.
func wait(t *testing.T, v *Virtual, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.WaitSleepers(ctx, n); err != nil {
		t.Fatalf("waiting for %d sleepers (%d asleep): %v", n, v.Sleepers(), err)
	}
}

// TestVirtualWakesInDeadlineOrder: sleepers wake one at a time by
// deadline, ties in the order they fell asleep; time never moves on its
// own; a cancelled sleeper leaves.
func TestVirtualWakesInDeadlineOrder(t *testing.T) {
	v := NewVirtual(start)
	bg := context.Background()
	late, cancelLate := context.WithCancel(bg)
	s30 := sleep(late, v, 30*time.Millisecond)
	wait(t, v, 1)
	s10 := sleep(bg, v, 10*time.Millisecond)
	wait(t, v, 2)
	s20a := sleep(bg, v, 20*time.Millisecond)
	wait(t, v, 3)
	s20b := sleep(bg, v, 20*time.Millisecond)
	wait(t, v, 4)
	steps := []struct {
		woken <-chan error
		at    time.Duration
	}{{s10, 10 * time.Millisecond}, {s20a, 20 * time.Millisecond}, {s20b, 20 * time.Millisecond}}
	for i, step := range steps {
		if !v.AdvanceToNext() {
			t.Fatalf("step %d: AdvanceToNext found no sleeper", i)
		}
		if err := <-step.woken; err != nil {
			t.Errorf("step %d: Sleep returned %v", i, err)
		}
		if got := v.Now().Sub(start); got != step.at || v.Sleepers() != 3-i {
			t.Errorf("step %d: now +%v with %d asleep; want +%v with %d", i, got, v.Sleepers(), step.at, 3-i)
		}
	}
	cancelLate()
	if err := <-s30; !errors.Is(err, context.Canceled) || v.Sleepers() != 0 {
		t.Errorf("the cancelled sleeper: %v, %d still asleep; want context.Canceled, 0", err, v.Sleepers())
	}
	if v.AdvanceToNext() || v.Now().Sub(start) != 20*time.Millisecond {
		t.Errorf("AdvanceToNext with no sleeper moved the time to +%v", v.Now().Sub(start))
	}
}

// TestVirtualAdvance: Advance wakes the sleepers whose deadline it
// reaches, and no other, and ends at the time asked for.
func TestVirtualAdvance(t *testing.T) {
	v := NewVirtual(start)
	bg := context.Background()
	s500 := sleep(bg, v, 500*time.Millisecond)
	s100 := sleep(bg, v, 100*time.Millisecond)
	wait(t, v, 2)
	v.Advance(499 * time.Millisecond)
	if err := <-s100; err != nil || v.Sleepers() != 1 || v.Now() != start.Add(499*time.Millisecond) {
		t.Fatalf("after 499ms: %v, %d asleep, now %v", err, v.Sleepers(), v.Now())
	}
	v.Advance(time.Millisecond)
	if err := <-s500; err != nil || v.Sleepers() != 0 {
		t.Errorf("after 500ms: %v, %d asleep", err, v.Sleepers())
	}
	if err := v.Sleep(bg, 0); err != nil || v.Now() != start.Add(500*time.Millisecond) {
		t.Errorf("Sleep(0): %v at %v; want nil at once", err, v.Now())
	}
}

// TestReal: the real clock sleeps for real and stops when ctx ends.
func TestReal(t *testing.T) {
	var c Clock = Real{}
	before := c.Now()
	if err := c.Sleep(context.Background(), 2*time.Millisecond); err != nil || c.Now().Sub(before) < 2*time.Millisecond {
		t.Errorf("Sleep(2ms): %v after %v", err, c.Now().Sub(before))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep(1h), cancelled: %v; want context.Canceled", err)
	}
}
