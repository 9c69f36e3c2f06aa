package order

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/clock"
)

// A fault's step on a schedule's line (explore --faults found it): no
// session sends it; the session that finds it next makes it happen, and
// holds every turn until it is over.
//
//	⚡2s       a pause: every session waits 2 s (and a millisecond more:
//	          Redis expires a key once its time is past)
//	⚡restart  the server restarts empty: every key and script gone
//	⚡lost:S   session S's command goes, and its reply is lost (S gets
//	          an error instead, as when its read timed out)
const faultMark = "⚡"

// RestartStep is a restart's step.
const RestartStep = faultMark + "restart"

// NodeRestartStep is a Redlock node's restart, empty: "⚡restart:C".
func NodeRestartStep(node string) string { return RestartStep + ":" + node }

// JumpStep is a Redlock node's clock jumping d ahead: "⚡jump:C+2s".
func JumpStep(node string, d time.Duration) string {
	return faultMark + "jump:" + node + "+" + d.String()
}

// nodeFault reads a node's fault step: its kind ("restart", "jump"), its
// node, and a jump's duration.
func nodeFault(step string) (kind, node string, d time.Duration, ok bool) {
	if node, ok := strings.CutPrefix(step, RestartStep+":"); ok && node != "" {
		return "restart", node, 0, true
	}
	rest, ok := strings.CutPrefix(step, faultMark+"jump:")
	node, dur, found := strings.Cut(rest, "+")
	d, err := time.ParseDuration(dur)
	return "jump", node, d, ok && found && node != "" && err == nil && d > 0
}

// PauseStep is a pause of d as a schedule's step names it: "⚡1.7s".
func PauseStep(d time.Duration) string { return faultMark + d.String() }

// isFault reports whether a step is a fault's (no session's name starts
// with the mark: a saved line never names one so).
func isFault(step string) bool {
	_, lost := lostOf(step)
	return strings.HasPrefix(step, faultMark) && !lost
}

// pauseOf reads a pause's step: its duration, and whether step is one.
func pauseOf(step string) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.TrimPrefix(step, faultMark))
	return d, isFault(step) && err == nil && d > 0
}

// checkFault refuses a fault's step this version does not know.
func checkFault(step string) error {
	if name, lost := lostOf(step); lost && name == "" {
		return fmt.Errorf("schedule: %s names no session (a lost reply is %sSESSION)", step, lostMark)
	}
	if _, ok := pauseOf(step); !isFault(step) || ok || step == RestartStep {
		return nil
	}
	if _, _, _, ok := nodeFault(step); ok {
		return nil
	}
	return fmt.Errorf("schedule: %s is no fault's step (a pause is ⚡DURATION, as ⚡2s; a restart is %s; a lost reply is %sSESSION)", step, RestartStep, lostMark)
}

// fault makes the fault step happen, then lets the next step be due. The
// caller has made the gate busy.
func (g *Gate) fault(ctx context.Context, step string) error {
	var err error
	if d, ok := pauseOf(step); ok {
		err = clock.Real{}.Sleep(ctx, d+time.Millisecond)
	} else if kind, node, d, ok := nodeFault(step); ok {
		err = g.nodeFault(kind, node, d)
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

// LostStep is a step of session name whose reply was lost: the command
// goes, and its session gets an error instead of the answer
// (session.ReplyLoser): "⚡lost:alice".
func LostStep(name string) string { return lostMark + name }

// lostMark starts a lost reply's step.
const lostMark = faultMark + "lost:"

// lostOf reads a lost reply's step: its session, and whether step is one.
func lostOf(step string) (string, bool) { return strings.CutPrefix(step, lostMark) }

// ReplyLost reports whether the reply of session name's command that has
// just gone is lost: its step was a lost reply's (session.ReplyLoser).
func (g *Gate) ReplyLost(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.losing != name || name == "" {
		return false
	}
	g.losing = ""
	return true
}

// nodeFault makes a Redlock node's fault step happen with the gate's
// Node hook.
func (g *Gate) nodeFault(kind, node string, d time.Duration) error {
	if g.Node == nil {
		return fmt.Errorf("schedule: a %s of node %s needs the lab's Redlock nodes", kind, node)
	}
	return g.Node(kind, node, d)
}

// inFault reports whether a fault's step is happening now (a pause being
// slept out): the sessions waiting meanwhile are not late for their turn.
func (g *Gate) inFault() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy && g.next < len(g.steps) && isFault(g.steps[g.next])
}
