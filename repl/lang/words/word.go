package words

import (
	"context"
	"errors"
	"fmt"
	"io"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lang/flags"
)

// Word is one word of the lab language.
type Word struct {
	Name, Usage, Summary string
	Kind                 Kind
	// Spec, when set, is the word's arguments (package flags): its Usage,
	// its Check and its Help are made from it when not given, and Tab
	// completes its subcommands, flags and choices from it. Run reads its
	// arguments with Spec.Parse.
	Spec *flags.Spec
	// Bidder says the first argument names a bidder: a job running the
	// word (`book alice &`) becomes session alice.
	Bidder bool
	// Sessions are the sessions the word always uses besides the caller's
	// (blind-unlock's slow and fast).
	Sessions []string
	// Unexplorable, when set, is why explore cannot run the word: it
	// starts servers of its own (cluster up), which do not run on
	// explore's virtual time, or needs what they are (a real link), or
	// runs for thousands of steps. explore refuses a
	// script that names it, and stops a search whose run reaches it (a
	// name known only at run time: c=cluster; $c up).
	Unexplorable string
	// UnexplorableCall, when set, is Unexplorable for one call, from its
	// words (args[0] the word): why explore cannot run it, or "" when it
	// can (`redlock up --real` starts redis-server processes, while
	// `redlock up` starts embedded nodes on explore's clock). Before a
	// script runs it is given the words known then (a call's literal
	// words, up to the first known only at run time: `redlock up "$@"` is
	// redlock up), and again all of them when the call runs.
	UnexplorableCall func(args []string) string
	// Run runs the word; args[0] is its name. It never sees a call that
	// asks for its help (`WORD --help`): the table answers that itself
	// (see answerHelp), and Check and Effects never see one either.
	Run func(ctx context.Context, env Env, args []string) error
	// Check, when set, says before a script runs what is wrong with the
	// word's arguments (expect's grammar, a schedule line, a macro's
	// usage): the script stops at FILE:LINE:COL before anything runs.
	// known[i] says whether args[i] is known yet (a literal word) or only
	// at run time, which can be anything: then args[i] is its text as
	// written ($b, "$@").
	Check func(args []string, known []bool) error
	// Help, when set, is the word's whole help (`help expect`).
	Help func() string
	// Effects, when set, says what a call does to the servers the lab
	// starts, or cannot run with, from its arguments (known[i] as for
	// Check), for the precheck that follows a whole script's calls in
	// order (package precheck): `redlock up --real` makes the Redlock
	// nodes real, `clock jump` cannot run on real ones. A script in which
	// a call cannot run with what the calls before it made is refused
	// before anything runs.
	Effects func(args []string, known []bool) []Effect
	alias   bool // another name of a word (source, bash ... of run), not listed by help
	filled  bool // complete made its Usage, Check and Help and answered its --help
}

// ExploreRefusal is why explore cannot run the call args (args[0] the
// word): the entry's Unexplorable, or what its UnexplorableCall says of
// these words; "" when explore can run it.
func (w *Word) ExploreRefusal(args []string) string {
	if w.Unexplorable != "" || w.UnexplorableCall == nil {
		return w.Unexplorable
	}
	return w.UnexplorableCall(args)
}

// Effect is one thing a call does to the servers the lab starts, or
// cannot run with (Word.Effects): a property of them, named by Key ("Redlock
// nodes"), that the call Sets to a value ("real"), or whose value Refuse
// it cannot run with, Why saying so as the refusal's message (the call,
// why not, and what to do instead).
type Effect struct {
	Key, Set    string // Set: the value the call gives Key; Unsure when it depends on what is known only at run time
	Refuse, Why string
}

// Unsure is an Effect's Set when the value depends on words known only at
// run time: the precheck no longer knows Key's value.
const Unsure = "?"

// Env is a word's view of the run it is part of, given by the shell.
type Env interface {
	Stdout() io.Writer
	Stderr() io.Writer
	// StdoutOf is where a line of session name goes: its own lines, when
	// the command runs at the terminal.
	StdoutOf(name string) io.Writer
	Stdin() io.Reader
	// Session is the session the command runs in.
	Session() string
	Sessions() *session.Set
	Output() *output.Output
	// Parts is the features' state in this shell (see Part).
	Parts() *Parts
	// Send sends args in session name, traced and annotated; print prints
	// the reply as redis-cli would. The error is an exit status for a
	// connection that failed (already reported), or ctx's.
	Send(ctx context.Context, name string, args []string, print bool) (resp.Reply, error)
	// Deliver prints and annotates an event sent on a connection of its
	// own (redis-cli's), in mode, and returns the command's exit status.
	Deliver(e session.Event, mode cliflags.Output, exitOnError bool) error
	// Sending tells the run's record that a command is about to go on a
	// connection of its own (redis-cli's), before Deliver.
	Sending(session string, args []string)
	// ConnFailed reports a connection to t that failed; it returns the
	// exit status.
	ConnFailed(ctx context.Context, t session.Target, err error) error
	// Dispatch runs a command line in session name (`@NAME on primary ...`).
	Dispatch(ctx context.Context, name string, args []string) error
	// RunScript runs a .lab or .sh file in the calling session.
	RunScript(ctx context.Context, path string, args []string) error
	// ReadScript reads a script through the lab's view of files, as run
	// does (explore reads the script it explores so).
	ReadScript(path string) ([]byte, error)
	// Position is FILE:LINE:COL (or LINE:COL) of the running command.
	Position() string
	// InFile reports whether the command comes from a script file.
	InFile() bool
	Interactive() bool
	TTY() bool
	// Clock is time as the lab sees it: every sleep and --work goes
	// through it.
	Clock() clock.Clock
	// Width is the terminal's width in columns.
	Width() int
}

// Kind is what a command word is.
type Kind int

const (
	Unknown Kind = iota // no word of the lab: refused (status 127)
	Redis               // a Redis command, sent as typed
	Shell               // the interpreter's own (echo, wait, set -e, test ...)
	Lab                 // a lab word of the table (sleep, help, expect ...)
	Macro               // a lesson macro (book, book-locked ...)
	Session             // @NAME: the rest runs in session NAME
	Script              // a script file: ./x.sh, run x.lab, source, bash, sh
	Repeat              // redis-cli's `N CMD`: CMD N times
)

var kindNames = [...]string{"unknown", "redis", "shell", "lab", "macro", "session", "script", "repeat"}

func (k Kind) String() string { return kindNames[k] }

// Error is a word's failure: its message for the user (none when it was
// already reported, as a Redis error reply is) and the exit status.
type Error struct {
	Status int
	Msg    string
	Bare   bool // print Msg as it is, without locklab's name (sleep's, redis-cli's own words)
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("exit status %d", e.Status)
	}
	return e.Msg
}

// Failf is a failure with status 1.
func Failf(format string, a ...any) error { return &Error{Status: 1, Msg: fmt.Sprintf(format, a...)} }

// Bare is a failure (status 1) in another program's words, printed as
// they are.
func Bare(format string, a ...any) error {
	return &Error{Status: 1, Msg: fmt.Sprintf(format, a...), Bare: true}
}

// Usage is bad arguments (status 2), with the usage line.
func Usage(usage string) error { return &Error{Status: 2, Msg: "usage: " + usage} }

// No is a word's answer "no" as its exit status 1, as test and grep give
// theirs (redlock acquire that did not acquire): no failure, nothing
// printed, nothing counted against the run's verdict, and a script can
// branch on it (`if redlock acquire ...; then`).
func No() error { return interp.ExitStatus(1) }

// Status is a failure already reported (a Redis error reply with -e, a
// connection error printed in redis-cli's words).
func Status(n int) error { return &Error{Status: n} }

// AsError finds a word's Error in err; bad arguments (a flags.Error) are
// one with status 2.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	var bad *flags.Error
	if errors.As(err, &bad) {
		return &Error{Status: 2, Msg: bad.Error()}, true
	}
	return nil, false
}

// ExitCode is the process exit status for a run's error: the script's own
// status, 2 for a syntax error, 130 for Ctrl-C, 1 for anything else.
func ExitCode(err error) int {
	if status, ok := AsStatus(err).(interp.ExitStatus); ok {
		return int(status)
	}
	return 0
}

// AsStatus is err as the interpreter's exit status: a run's own, 2 for a
// syntax error, 130 for Ctrl-C, a word's failure's, else 1.
func AsStatus(err error) error {
	var perr syntax.ParseError
	var status interp.ExitStatus
	switch {
	case err == nil:
		return nil
	case errors.As(err, &status):
		return status
	case errors.As(err, &perr):
		return interp.ExitStatus(2)
	case errors.Is(err, context.Canceled):
		return interp.ExitStatus(130)
	}
	if e, ok := AsError(err); ok {
		return interp.ExitStatus(e.Status)
	}
	return interp.ExitStatus(1)
}

// Describe words an error from a run for the user, or returns "" when there
// is nothing to say (a plain exit status).
func Describe(err error) string {
	var perr syntax.ParseError
	var status interp.ExitStatus
	switch {
	case err == nil, errors.As(err, &status):
		return ""
	case errors.Is(err, context.Canceled):
		return "(interrupted)"
	case errors.As(err, &perr):
		return fmt.Sprintf("locklab: %v", perr)
	}
	if e, ok := AsError(err); ok && (e.Msg == "" || e.Bare) {
		return e.Msg // already reported (""), or in another program's words
	}
	return "locklab: " + err.Error()
}
