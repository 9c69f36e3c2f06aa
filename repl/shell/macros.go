package shell

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/resp"
)

// The lab's macros join the table of lab words.
func init() {
	for i := range lab.Macros {
		m := &lab.Macros[i]
		labWords = append(labWords, labWord{name: m.Name, usage: m.Usage, summary: m.Summary, bidder: m.Bidder, run: macroCommand(m)})
	}
}

func macroCommand(m *lab.Macro) labCommand {
	return func(s *Shell, ctx context.Context, hc interp.HandlerContext, args []string) error {
		err := m.Run(ctx, &macroEnv{s: s, hc: hc, session: sessionOf(ctx, hc)}, args[1:])
		var usage *lab.UsageError
		switch {
		case errors.As(err, &usage):
			fmt.Fprintln(hc.Stderr, "locklab:", usage)
			return interp.ExitStatus(2)
		case errors.Is(err, lab.ErrReply):
			return interp.ExitStatus(1)
		}
		return err
	}
}

// macroEnv is a macro's view of the shell (see lab.Env).
type macroEnv struct {
	s       *Shell
	hc      interp.HandlerContext
	session string
}

func (e *macroEnv) Session() string { return e.session }

func (e *macroEnv) Run(ctx context.Context, session string, args ...string) (resp.Reply, error) {
	return e.s.send(ctx, e.hc, session, args, true)
}

func (e *macroEnv) Query(ctx context.Context, session string, args ...string) (resp.Reply, error) {
	return e.s.send(ctx, e.hc, session, args, false)
}

func (e *macroEnv) Say(session, format string, a ...any) {
	fmt.Fprintf(e.s.stdoutFor(e.hc, session), format+"\n", a...)
}

func (e *macroEnv) Seats(slot string, n int64) {
	e.s.annMu.Lock()
	defer e.s.annMu.Unlock()
	e.s.ann.SetSeats(slot, n)
}

func (e *macroEnv) Sleep(ctx context.Context, d time.Duration) error {
	return clock.Real{}.Sleep(ctx, d)
}

func (e *macroEnv) SHA(script string) string {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.s.scripts[script]
}

func (e *macroEnv) SetLoaded(script, sha string) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	e.s.scripts[script] = sha
}
