package macros

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/keyguard"
	"github.com/locklab/locklab/repl/lang/duration"
)

// Env is what a macro may do: send commands in sessions and print lines.
type Env interface {
	// Session is the session the macro was called in ("main" at the prompt,
	// or a job's own).
	Session() string
	// Run sends a command in session and prints its reply, as typing it
	// would; Query sends it quietly (its notes still print).
	Run(ctx context.Context, session string, args ...string) (resp.Reply, error)
	Query(ctx context.Context, session string, args ...string) (resp.Reply, error)
	// Say prints one line in session's output, formatted as check.Say
	// formats a note (a bidder's name, a key, an error reply: each string
	// argument is a value, quoted when it holds a control character).
	Say(session, format string, a ...any)
	// Seats tells the annotator how many bookings a slot may hold.
	Seats(slot string, n int64)
	// Sleep waits, or stops early when ctx is cancelled.
	Sleep(ctx context.Context, d time.Duration) error
	// Now is the run's time: the wall clock's, or explore's virtual
	// time. A macro never reads the wall clock itself.
	Now() time.Time
	// SHA and SetLoaded remember scripts loaded with SCRIPT LOAD on the
	// lab's server, so they are loaded once (SHA is "" until then).
	SHA(script string) string
	SetLoaded(script, sha string)
	// OwnServer says the server is the lab's own, fresh for this run of
	// locklab (the embedded one): none of its keys can hold someone
	// else's data, so a macro deletes its keys without checking them.
	OwnServer() bool
	// Inspect sends a command that only reads on a connection of its
	// own, outside the sessions, as load's control connection is: it is
	// not traced, and a schedule (a saved one forced on a real server)
	// does not count it among the sessions' steps.
	Inspect(ctx context.Context, args ...string) (resp.Reply, error)
}

// Macro is one lab command.
type Macro struct {
	Name, Usage, Summary string
	// Bidder says the first argument names a bidder: a job running the
	// macro (`book alice &`) becomes session alice.
	Bidder bool
	// Sessions are the sessions the macro always uses, besides the
	// caller's (blind-unlock's slow and fast).
	Sessions []string
	Run      func(ctx context.Context, env Env, args []string) error
}

// UsageError is bad input to a macro; its text is the usage line.
type UsageError struct{ Usage, Problem string }

func (e *UsageError) Error() string { return fmt.Sprintf("%s\nusage: %s", e.Problem, e.Usage) }

// Usage lines of the macros.
const (
	bookUsage        = "book BIDDER [--slot KEY] [--seats N] [--work DUR]"
	bookLockedUsage  = "book-locked BIDDER TOKEN [--lock KEY] [--ttl DUR] [--work DUR] [--wait DUR] [--watchdog] [--release get-del|eval|blind] [--slot KEY] [--seats N]"
	blindUnlockUsage = "blind-unlock [--key K] [--slow-ttl DUR] [--work DUR] [--fast-ttl DUR] [--release blind|eval]"
	evalReleaseUsage = "eval-release KEY TOKEN"
	extendUsage      = "extend KEY TOKEN TTL"
	fencedBookUsage  = "fenced-book BIDDER [--lock KEY] [--ttl DUR] [--work DUR] [--pause DUR] [--wait DUR] [--slot KEY] [--seats N]"
	fencedWriteUsage = "fenced-write BIDDER TOKEN [--lock KEY] [--slot KEY] [--seats N]"
)

// Macros is the table of lab macros, in the order help lists them.
var Macros = []Macro{
	{Name: "book", Bidder: true,
		Usage:   bookUsage,
		Summary: "check-then-act with no lock: LLEN, work, RPUSH (the double-booking bug)",
		Run:     book},
	{Name: "book-locked", Bidder: true,
		Usage:   bookLockedUsage,
		Summary: "SET lock TOKEN NX PX ttl, the same booking, then release (the fix; --wait retries the SET)",
		Run:     bookLocked},
	{Name: "blind-unlock", Sessions: []string{"slow", "fast"},
		Usage:   blindUnlockUsage,
		Summary: "the lesson's slow client: its lock expires mid-work, fast takes it, slow's blind DEL removes fast's lock",
		Run:     blindUnlock},
	{Name: "eval-release",
		Usage:   evalReleaseUsage,
		Summary: "the atomic compare-and-delete release (SCRIPT LOAD once, then EVALSHA): 1 released, 0 not yours",
		Run:     evalReleaseMacro},
	{Name: "extend",
		Usage:   extendUsage,
		Summary: "compare-and-PEXPIRE: give the lock TTL more time, only if TOKEN still holds it (1 extended, 0 not yours)",
		Run:     extendMacro},
	{Name: "fenced-book", Bidder: true,
		Usage:   fencedBookUsage,
		Summary: "a booking guarded by a fencing token (INCR): the slot refuses a token older than the newest it has seen",
		Run:     fencedBook},
	{Name: "fenced-write", Bidder: true,
		Usage:   fencedWriteUsage,
		Summary: "the booking alone, through the slot's fencing check: refused when TOKEN is older than the newest the slot accepted",
		Run:     fencedWriteMacro},
}

// Find returns the macro called name, or nil.
func Find(name string) *Macro {
	for i := range Macros {
		if Macros[i].Name == name {
			return &Macros[i]
		}
	}
	return nil
}

// flags parses a macro's arguments: npos positional arguments first, then
// --name value options (or --name=value).
type flags struct {
	fs    *flag.FlagSet
	usage string
	bad   error // the refusal of a value, as told says it
}

// told is an option's value whose refusal names the option and the value,
// as the precheck does (--work 3: 3 needs a unit: 3s or 3ms), not as the
// flag package words it.
type told struct {
	flag.Value
	name string
	f    *flags
}

func (t told) String() string {
	if t.Value == nil { // the zero value the flag package makes for its help
		return ""
	}
	return t.Value.String()
}

func (t told) Set(s string) error {
	err := t.Value.Set(s)
	if err != nil {
		t.f.bad = fmt.Errorf("--%s %s: %w", t.name, s, err)
	}
	return err
}

// value adds an option whose value v reads.
func (f *flags) value(name string, v flag.Value, help string) {
	f.fs.Var(told{v, name, f}, name, help)
}

func newFlags(name, usage string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &flags{fs: fs, usage: usage}
}

func (f *flags) parse(args []string, npos int) ([]string, error) {
	if len(args) < npos || slices.ContainsFunc(args[:min(npos, len(args))], isOption) {
		return nil, &UsageError{Usage: f.usage, Problem: fmt.Sprintf("%s: needs %d argument(s)", f.fs.Name(), npos)}
	}
	pos := args[:npos]
	if err := f.fs.Parse(args[npos:]); err != nil {
		if f.bad != nil {
			err = f.bad
		}
		return nil, &UsageError{Usage: f.usage, Problem: fmt.Sprintf("%s: %v", f.fs.Name(), err)}
	}
	if f.fs.NArg() > 0 {
		return nil, &UsageError{Usage: f.usage, Problem: fmt.Sprintf("%s: unexpected argument %q", f.fs.Name(), f.fs.Arg(0))}
	}
	return pos, nil
}

func isOption(arg string) bool { return strings.HasPrefix(arg, "--") }

// durValue is a flag value in the lesson's units, with its unit: 300ms,
// 2s, 1.5s (0 needs none). A bare number is refused (duration.Span): `--work
// 3` could be 3 ms (PX) or 3 s (sleep), and the two differ a thousandfold.
// A TTL (min 1ms) must be at least a millisecond, as PX counts whole ones.
type durValue struct {
	d   *time.Duration
	min time.Duration
}

func (f *flags) duration(name string, def time.Duration, help string) *time.Duration {
	d := def
	f.value(name, durValue{d: &d}, help)
	return &d
}

// ttl is a duration flag that sets a TTL: 1ms or more.
func (f *flags) ttl(name string, def time.Duration, help string) *time.Duration {
	d := def
	f.value(name, durValue{d: &d, min: time.Millisecond}, help)
	return &d
}

// count is a flag value that counts something (seats): a whole number,
// 1 or more.
type count struct{ n *int64 }

func (f *flags) count(name string, def int64, help string) *int64 {
	n := def
	f.value(name, count{&n}, help)
	return &n
}

func (v count) String() string {
	if v.n == nil {
		return ""
	}
	return strconv.FormatInt(*v.n, 10)
}

func (v count) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return errors.New("want a whole number, 1 or more")
	}
	*v.n = n
	return nil
}

func (v durValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v durValue) Set(s string) error {
	d, err := duration.Span(s)
	if err != nil {
		return err
	}
	if d < v.min {
		return fmt.Errorf("want at least %v (PX counts whole milliseconds)", v.min)
	}
	*v.d = d
	return nil
}

func millis(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// bidderSession is where a bidder's commands go: the caller's session when
// the macro runs in a job or @NAME, else a session named after the bidder.
func bidderSession(env Env, bidder string) string {
	if s := env.Session(); s != "main" {
		return s
	}
	return bidder
}

// checkKeys refuses, before the macro sends anything else, to run when
// one of the keys it deletes at its start holds data the lab did not
// write (keyguard.Check), as that data is someone else's on a real
// server. The check goes through Inspect, outside the sessions; on the
// lab's own server it sends nothing. flag is the option that chooses
// other keys.
func checkKeys(ctx context.Context, env Env, word, flag string, keys ...keyguard.Key) error {
	if env.OwnServer() {
		return nil
	}
	if err := (keyguard.Guard{Word: word, Flag: flag, Send: env.Inspect}).Check(ctx, keys); err != nil {
		return fmt.Errorf("%s: %w", word, err)
	}
	return nil
}
