package words

import (
	"context"
	"io"
	"time"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// Observer is what watches the runs a shell drives: the lab's record,
// printer and checker (package lab gives one). The language knows no
// lock: it says what it sends and what comes back, when a run begins,
// and asks for the verdict, the counts and the picture.
type Observer interface {
	// Sending says a command is about to go, in session.
	Sending(session string, args []string)
	// Deliver prints a reply as redis-cli would in mode (Quiet: not at
	// all) to w, records it and prints its notes.
	Deliver(stderr, w io.Writer, ev session.Event, mode cliflags.Output, exitOnError bool)
	// Status is the exit status of a command whose reply r was delivered.
	Status(stderr io.Writer, args []string, r resp.Reply, exitOnError bool) error
	// TTYFor reports whether a reply in mode goes to w in the TTY format.
	TTYFor(w io.Writer, mode cliflags.Output) bool
	// Failed counts a command of the run that failed (what says where and why).
	Failed(what string)
	// Unanswered takes a command that went out and got no reply (its
	// event carries the error): one the server ran may have been read by
	// the lab already (a probe's), and is let go.
	Unanswered(ev session.Event)
	// Begin starts a new run; Start is when the run began.
	Begin()
	Start() time.Time
	// Judged reports whether there is news for a verdict since the last.
	Judged() bool
	// TakeExpectations and AddExpectations move the counts of `expect`
	// lines between a script and the run around it; AnyFailed says
	// whether one failed since locklab began.
	TakeExpectations() (checked, failed int)
	AddExpectations(checked, failed int)
	AnyFailed() bool
	// Verdict prints the verdict on the run so far to w.
	Verdict(ctx context.Context, w io.Writer, main *session.Session)
	// Draw is the run's picture, width columns wide.
	Draw(ctx context.Context, main *session.Session, width int) string
	// RedisErrors is how many error replies Redis gave (for -e).
	RedisErrors() int
	// Install gives the features the observer's parts (the record).
	Install(p *Parts)
	// Entered says an entry typed at the prompt ran (a recording of the
	// session writes it).
	Entered(e Entry)
}

// Entry is an entry that ran at the prompt: its text, what it sent (one
// that sent a secret is kept out of a recording, as out of the history),
// and whether it started background jobs (which may send one yet).
type Entry struct {
	Text        string
	Sent        *session.SecretWatch
	StartedJobs bool
	JobsRunning func() bool // whether any job of the shell still runs
}

// ObserverConfig is what an Observer is told of the shell it serves.
type ObserverConfig struct {
	Out         *output.Output
	Now         func() time.Time // the run's clock
	TTY         bool             // stdout is a terminal
	Interactive bool             // a person is typing
	Notes       bool             // print notes and verdicts
	Trace       bool             // keep the events for a picture even without notes
}

// Quiet is the output mode of a reply that is not printed (a macro's
// query): its notes still are.
const Quiet cliflags.Output = -1
