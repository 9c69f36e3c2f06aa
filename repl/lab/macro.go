package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/keyguard"
	"github.com/locklab/locklab/repl/lab/macros"
	"github.com/locklab/locklab/repl/lang/words"
)

// macroWord lists a lesson macro in the table.
func macroWord(m *macros.Macro) words.Word {
	return words.Word{Name: m.Name(), Kind: words.Macro, Spec: m.Spec, Summary: m.Summary, Bidder: m.Bidder, Sessions: m.Sessions,
		Run: func(ctx context.Context, env words.Env, args []string) error {
			p, err := m.Spec.Parse(args[1:])
			if err != nil {
				return err
			}
			err = m.Run(ctx, macroEnv{env}, p)
			var foreign *keyguard.ForeignError
			switch {
			case errors.Is(err, macros.ErrReply):
				return words.Status(1)
			case errors.As(err, &foreign): // a refusal: the script goes on, as after load's
				return words.Failf("%v", err)
			}
			return err
		}}
}

// macroEnv is a macro's view of the run (see macros.Env).
type macroEnv struct{ env words.Env }

func (e macroEnv) Session() string { return e.env.Session() }

func (e macroEnv) Run(ctx context.Context, session string, args ...string) (resp.Reply, error) {
	return e.env.Send(ctx, session, args, true)
}

func (e macroEnv) Query(ctx context.Context, session string, args ...string) (resp.Reply, error) {
	return e.env.Send(ctx, session, args, false)
}

// Say prints a line of the macro's in session's output, its values shown
// as check.Say shows them.
func (e macroEnv) Say(session, format string, a ...any) {
	fmt.Fprintln(e.env.StdoutOf(session), check.Say(format, a...))
}

func (e macroEnv) Seats(slot string, n int64) { recorderOf(e.env).SetSeats(slot, n) }

func (e macroEnv) Sleep(ctx context.Context, d time.Duration) error {
	return e.env.Clock().Sleep(ctx, d)
}

func (e macroEnv) Now() time.Time { return e.env.Clock().Now() }

func (e macroEnv) SHA(script string) string { return stateOf(e.env).SHA(script) }

func (e macroEnv) SetLoaded(script, sha string) { stateOf(e.env).SetLoaded(script, sha) }

func (e macroEnv) OwnServer() bool { return e.env.Sessions().Target.Embedded }

// Inspect sends args on a connection of its own, closed after it (see
// macros.Env).
func (e macroEnv) Inspect(ctx context.Context, args ...string) (resp.Reply, error) {
	c := session.NewConn(e.env.Sessions().Target, "locklab-check")
	defer c.Close()
	return c.Do(ctx, args)
}
