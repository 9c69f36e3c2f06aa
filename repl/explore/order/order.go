package order

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/explore/poll"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// Gate lets the sessions' commands go in the order of its steps.
type Gate struct {
	steps []string      // the session of each step
	wait  time.Duration // how long a session waits for its turn before the order is given up
	tell  io.Writer     // where giving the order up is said

	mu      sync.Mutex
	next    int                    // the step whose turn it is
	busy    bool                   // a step has gone and its reply has not come back
	changed chan struct{}          // closed (and replaced) whenever next or busy changes
	broken  bool                   // the order was given up
	last    map[string]poll.Answer // each session's last command, and its answer
	polling bool                   // the step whose turn it is has polled: a repeat went, no step yet
	losing  string                 // the session whose command went as a lost reply's step (see ReplyLost)

	// Restart, when set, restarts the server empty, for a schedule's
	// restart step (see faults.go); nil refuses one.
	Restart func(ctx context.Context) error
	// Node, when set, makes a Redlock node's fault step happen: kind
	// "restart" (empty), or "jump" (its clock d ahead).
	Node func(kind, node string, d time.Duration) error
}

// New is a gate for steps (session names, one per command) that gives up
// the order when a session has waited wait for its turn, and says so on
// tell.
func New(steps []string, wait time.Duration, tell io.Writer) *Gate {
	return &Gate{steps: steps, wait: wait, tell: tell, changed: make(chan struct{}), last: map[string]poll.Answer{}}
}

// Turn waits until the schedule's next step is name's and the step before
// it is over. When the order cannot be kept (no step came within the
// wait: the session whose turn it is sent nothing, or polled all along for
// an answer that did not change), it says so once, and from then on every
// command goes freely, this one first.
func (g *Gate) Turn(ctx context.Context, name string, args []string) (func(session.Event), error) {
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	step := -1
	for {
		g.mu.Lock()
		if step >= 0 && step != g.next {
			timer.Reset(g.wait) // a step went: the wait starts again
		}
		step = g.next
		if g.broken || g.next >= len(g.steps) {
			g.mu.Unlock()
			return func(session.Event) {}, nil
		}
		if isFault(g.steps[g.next]) && !g.busy {
			g.busy = true
			g.mu.Unlock()
			if err := g.fault(ctx, g.steps[g.next]); err != nil {
				return nil, err
			}
			continue
		}
		if lost, ok := lostOf(g.steps[g.next]); !g.busy && (g.steps[g.next] == name || ok && lost == name) {
			g.busy = true
			if ok {
				g.losing = name // its reply is lost (ReplyLost)
			}
			g.mu.Unlock()
			return func(e session.Event) { g.release(name, args, e) }, nil
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			if g.inFault() {
				timer.Reset(g.wait) // a fault's step (a pause) takes its time: no session is late
				continue
			}
			g.giveUp(name)
		}
	}
}

// release ends the turn of name's command args, answered as e: the step
// is over, unless the command was a poll's repeat (package poll), which
// spends no step: the turn stays name's, and the poll goes on until its
// answer changes or name sends something else. So the order waits for
// what the server shows (a key expiring, a value changing), however many
// times a session polls for it.
func (g *Gate) release(name string, args []string, e session.Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.losing == name {
		g.losing = "" // a reply to lose that never came (an error came instead)
	}
	now := poll.Of(args, e)
	g.polling = poll.Repeats(g.last[name], now)
	if !g.polling {
		g.next++
	}
	g.last[name] = now
	g.busy = false
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
	did := "sent nothing"
	if g.polling {
		did = "polled with the same answer" // the server did not show the change the schedule waits for
	}
	fmt.Fprintf(g.tell, "locklab: the schedule did not replay: step %d is %s's, which %s for %v while %s waited;"+
		" from here the sessions go in any order (the script may take another path here: a clock it reads, a poll that gave up)\n",
		g.next+1, shellquote.Word(g.steps[g.next]), did, g.wait, shellquote.Word(name))
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

// Parse reads `schedule [--wait DUR] [--] SESSION ...` (args without the
// word) with Spec: the steps' sessions and the wait. After `--` every word
// is a session, one named `-b` too. Its errors are one line (flags.Error).
func Parse(args []string) (steps []string, wait time.Duration, err error) {
	p, err := Spec.Parse(args)
	if err != nil {
		return nil, 0, err
	}
	for _, st := range p.Args {
		if err := checkFault(st); err != nil {
			return nil, 0, err
		}
	}
	return p.Args, p.Duration("wait"), nil
}

// Line is the schedule word's line for steps (the session of each step):
// each name quoted as the shell reads it back, and `--` first when one
// would read as an option.
func Line(steps []string) string {
	words := []string{"schedule"}
	if slices.ContainsFunc(steps, func(s string) bool { return strings.HasPrefix(s, "-") }) {
		words = append(words, "--")
	}
	return shellquote.Line(append(words, steps...)...)
}
