package order

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A fault's step on a schedule's line (explore --faults found it): no
// session sends it; the session that finds it next makes it happen, and
// holds every turn until it is over.
//
//	⚡2s       a pause: every session waits 2 s (and a millisecond more:
//	          Redis expires a key once its time is past)
//	⚡restart  the server restarts empty: every key and script gone
const faultMark = "⚡"

// RestartStep is a restart's step.
const RestartStep = faultMark + "restart"

// PauseStep is a pause of d as a schedule's step names it: "⚡1.7s".
func PauseStep(d time.Duration) string { return faultMark + d.String() }

// isFault reports whether a step is a fault's (no session's name starts
// with the mark: a saved line never names one so).
func isFault(step string) bool { return strings.HasPrefix(step, faultMark) }

// pauseOf reads a pause's step: its duration, and whether step is one.
func pauseOf(step string) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.TrimPrefix(step, faultMark))
	return d, isFault(step) && err == nil && d > 0
}

// checkFault refuses a fault's step this version does not know.
func checkFault(step string) error {
	if _, ok := pauseOf(step); !isFault(step) || ok || step == RestartStep {
		return nil
	}
	return fmt.Errorf("schedule: %s is no fault's step (a pause is ⚡DURATION, as ⚡2s; a restart is %s)", step, RestartStep)
}

// fault makes the fault step happen, then lets the next step be due. The
// caller has made the gate busy.
func (g *Gate) fault(ctx context.Context, step string) error {
	var err error
	if d, ok := pauseOf(step); ok {
		err = sleep(ctx, d+time.Millisecond)
	} else if g.Restart == nil {
		err = errors.New("schedule: this server cannot be restarted from a script (a restart step needs the lab's own server)")
	} else {
		err = g.Restart(ctx)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err == nil {
		g.next++
	}
	g.busy = false
	g.signal()
	return err
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
