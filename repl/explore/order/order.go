package order

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/lang/flags"
)

// Gate lets the sessions' commands go in the order of its steps.
type Gate struct {
	steps []string      // the session of each step
	wait  time.Duration // how long a session waits for its turn before the order is given up
	tell  io.Writer     // where giving the order up is said

	mu      sync.Mutex
	next    int           // the step whose turn it is
	busy    bool          // a step has gone and its reply has not come back
	changed chan struct{} // closed (and replaced) whenever next or busy changes
	broken  bool          // the order was given up
}

// New is a gate for steps (session names, one per command) that gives up
// the order when a session has waited wait for its turn, and says so on
// tell.
func New(steps []string, wait time.Duration, tell io.Writer) *Gate {
	return &Gate{steps: steps, wait: wait, tell: tell, changed: make(chan struct{})}
}

// Turn waits until the schedule's next step is name's and the step before
// it is over. When the order cannot be kept (the step whose turn it is
// did not come within the wait), it says so once, and from then on every
// command goes freely, this one first.
func (g *Gate) Turn(ctx context.Context, name string, args []string) (func(), error) {
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	for {
		g.mu.Lock()
		if g.broken || g.next >= len(g.steps) {
			g.mu.Unlock()
			return func() {}, nil
		}
		if !g.busy && g.steps[g.next] == name {
			g.busy = true
			g.mu.Unlock()
			return g.release, nil
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			g.giveUp(name)
		}
	}
}

// release ends the step that went.
func (g *Gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.busy = false
	g.next++
	g.signal()
}

// giveUp breaks the order, saying so: the step whose turn it is never
// came.
func (g *Gate) giveUp(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.broken {
		return
	}
	g.broken = true
	g.signal()
	fmt.Fprintf(g.tell, "locklab: the schedule did not replay: step %d is %s's, which sent nothing for %v while %s waited;"+
		" from here the sessions go in any order (the script may poll a different number of times, or read the clock)\n",
		g.next+1, g.steps[g.next], g.wait, name)
}

// signal wakes every waiting session (g.mu held).
func (g *Gate) signal() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Spec is the schedule word's arguments (package flags).
var Spec = &flags.Spec{Name: "schedule", FlagsFirst: true, Args: []flags.Arg{{Name: "SESSION", Many: true}},
	Flags: []flags.Flag{{Name: "wait", Kind: flags.Duration, MinDur: time.Millisecond, Default: DefaultWait.String(),
		Help: "how long a session waits for its turn before the order is given up"}}}

// DefaultWait is how long a session waits for its turn before the order
// is given up.
const DefaultWait = 10 * time.Second

// Parse reads `schedule [--wait DUR] SESSION ...` (args without the
// word) with Spec: the steps' sessions and the wait. Its errors are one
// line (flags.Error).
func Parse(args []string) (steps []string, wait time.Duration, err error) {
	p, err := Spec.Parse(args)
	if err != nil {
		return nil, 0, err
	}
	for _, a := range p.Args {
		if strings.HasPrefix(a, "-") {
			return nil, 0, Spec.Errorf("%s is not a session (the one flag is --wait DUR)", a)
		}
	}
	return p.Args, p.Duration("wait"), nil
}
