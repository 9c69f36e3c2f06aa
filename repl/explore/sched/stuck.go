package sched

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/commands"
)

// StuckError is a schedule that could not go on: at step Step, What (a
// session and its command) waited for something that would not come.
type StuckError struct {
	Step      int
	What, Why string
	// Polling says only polls were left that nothing could change (a
	// poll for a lock that expired before it looked, say), not a stall on
	// the wall clock or a loop past MaxSteps.
	Polling bool
}

func (e *StuckError) Error() string {
	return fmt.Sprintf("stuck at step %d: %s (%s)", e.Step, e.What, e.Why)
}

// repeats reports whether t would read again what its session has just
// read: the last step was the same session's same read-only command, and
// virtual time has not moved since. Its reply could only be the same, so
// a busy poll (`until [ "$(EXISTS lock)" = 1 ]; do :; done`) waits until
// another session has stepped or time has moved, instead of polling an
// unbounded number of times on a clock that does not move while it does.
// Called with s.mu held.
func (s *Sched) repeats(t *ticket) bool {
	return !s.moved && s.lastName == t.Session && slices.Equal(s.lastArgs, t.Args) && readOnly(t.Args)
}

// readOnly reports whether Redis documents the command as read-only.
func readOnly(args []string) bool {
	c, _ := commands.Lookup(args)
	return c != nil && c.Is(commands.FlagReadonly)
}

// spinning is the error of a schedule in which only repeated polls are
// left: nothing else will ever run, and no time is left to pass.
func (s *Sched) spinning() *StuckError {
	var who []string
	for _, t := range s.turns {
		who = append(who, t.Step())
	}
	return &StuckError{Step: len(s.steps) + 1, What: strings.Join(who, ", "), Polling: true,
		Why: "it polls for a change that nothing left in the script can make, and no sleeper is left to move virtual time"}
}

// stalled is the error of a schedule that nothing moved on for
// StallAfter of wall-clock time. Called with s.mu held.
func (s *Sched) stalled() *StuckError {
	why := fmt.Sprintf("it waits on the wall clock: no reply in %s", StallAfter)
	if len(s.inflight) == 0 {
		return &StuckError{Step: len(s.steps), What: "local work between steps",
			Why: fmt.Sprintf("it waits on the wall clock: %s with no command and no sleep", StallAfter)}
	}
	what := strings.Join(stepsOf(s.inflight), ", ")
	if c, _ := commands.Lookup(s.inflight[0].Args); c != nil && c.Is(commands.FlagBlocking) {
		why += "; a blocking command waits in real time on the embedded Redis, and for ever with timeout 0"
	}
	return &StuckError{Step: len(s.steps), What: what, Why: why}
}

func itoa(n int) string { return strconv.Itoa(n) }
