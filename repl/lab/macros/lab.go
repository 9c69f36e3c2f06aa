package macros

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/keyguard"
	"github.com/locklab/locklab/repl/lang/flags"
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
	// Spec is its arguments: the usage line, help, the check of a
	// script's calls and completion are made from it.
	Spec    *flags.Spec
	Summary string
	// Bidder says the first argument names a bidder: a job running the
	// macro (`book alice &`) becomes session alice.
	Bidder bool
	// Sessions are the sessions the macro always uses, besides the
	// caller's (blind-unlock's slow and fast).
	Sessions []string
	// Run runs it, its arguments read by Spec.
	Run func(ctx context.Context, env Env, p *flags.Parsed) error
}

// Name is the macro's word.
func (m *Macro) Name() string { return m.Spec.Name }

// The flags the macros share, with the lesson's values.
var (
	slotFlag  = flags.Flag{Name: "slot", Kind: flags.String, Value: "KEY", Default: "room:2pm:bookings", Help: "the slot's list"}
	seatsFlag = flags.Flag{Name: "seats", Kind: flags.Int, Min: 1, Default: "1", Help: "how many bookings the slot takes"}
	workFlag  = flags.Flag{Name: "work", Kind: flags.Duration, Default: "300ms", Help: "time between the check and the booking"}
	lockFlag  = flags.Flag{Name: "lock", Kind: flags.String, Value: "KEY", Default: "lock:room:2pm", Help: "the lock key"}
	ttlFlag   = flags.Flag{Name: "ttl", Kind: flags.Duration, Default: "2s", MinDur: time.Millisecond, Help: "the lock's TTL"}
	waitFlag  = flags.Flag{Name: "wait", Kind: flags.Duration, Help: "keep trying to acquire for this long, backing off with jitter (0: give up at once)"}
)

// Macros is the table of lab macros, in the order help lists them.
var Macros = []Macro{
	{Spec: &flags.Spec{Name: "book", Args: []flags.Arg{{Name: "BIDDER"}},
		Flags: []flags.Flag{slotFlag, seatsFlag, workFlag}},
		Bidder:  true,
		Summary: "check-then-act with no lock: LLEN, work, RPUSH (the double-booking bug)",
		Run:     book},
	{Spec: &flags.Spec{Name: "book-locked", Args: []flags.Arg{{Name: "BIDDER"}, {Name: "TOKEN"}},
		Flags: []flags.Flag{lockFlag, ttlFlag, workFlag, waitFlag,
			{Name: "watchdog", Kind: flags.Bool, Help: "extend the lock (compare-and-PEXPIRE) every TTL/3 while working"},
			{Name: "release", Kind: flags.Enum, Choices: []string{"get-del", "eval", "blind"}, Default: "get-del",
				Help: "how to release: GET, compare, DEL (the lesson's), the Lua compare-and-delete, or a blind DEL"},
			slotFlag, seatsFlag}},
		Bidder:  true,
		Summary: "SET lock TOKEN NX PX ttl, the same booking, then release (the fix; --wait retries the SET)",
		Run:     bookLocked},
	{Spec: &flags.Spec{Name: "blind-unlock", Flags: []flags.Flag{
		{Name: "key", Kind: flags.String, Value: "K", Default: "lock:demo", Help: "the lock key"},
		{Name: "slow-ttl", Kind: flags.Duration, Default: "500ms", MinDur: time.Millisecond, Help: "slow's TTL"},
		{Name: "work", Kind: flags.Duration, Default: "1s", Help: "slow's work, longer than its TTL"},
		{Name: "fast-ttl", Kind: flags.Duration, Default: "5s", MinDur: time.Millisecond, Help: "fast's TTL"},
		{Name: "release", Kind: flags.Enum, Choices: []string{"blind", "eval"}, Default: "blind", Help: "blind (the bug) or eval (the fix)"}}},
		Sessions: []string{"slow", "fast"},
		Summary:  "the lesson's slow client: its lock expires mid-work, fast takes it, slow's blind DEL removes fast's lock",
		Run:      blindUnlock},
	{Spec: &flags.Spec{Name: "eval-release", Args: []flags.Arg{{Name: "KEY"}, {Name: "TOKEN"}}},
		Summary: "the atomic compare-and-delete release (SCRIPT LOAD once, then EVALSHA): 1 released, 0 not yours",
		Run:     evalReleaseMacro},
	{Spec: &flags.Spec{Name: "extend", Args: []flags.Arg{{Name: "KEY"}, {Name: "TOKEN"}, {Name: "TTL"}}},
		Summary: "compare-and-PEXPIRE: give the lock TTL more time, only if TOKEN still holds it (1 extended, 0 not yours)",
		Run:     extendMacro},
	{Spec: &flags.Spec{Name: "fenced-book", Args: []flags.Arg{{Name: "BIDDER"}},
		Flags: []flags.Flag{lockFlag, ttlFlag, workFlag,
			{Name: "pause", Kind: flags.Duration, Help: "a stop-the-world pause in the middle of the work"},
			waitFlag, slotFlag, seatsFlag}},
		Bidder:  true,
		Summary: "a booking guarded by a fencing token (INCR): the slot refuses a token older than the newest it has seen",
		Run:     fencedBook},
	{Spec: &flags.Spec{Name: "fenced-write", Args: []flags.Arg{{Name: "BIDDER"}, {Name: "TOKEN"}},
		Flags: []flags.Flag{{Name: "lock", Kind: flags.String, Value: "KEY", Default: "lock:room:2pm", Help: "the lock key (the newest token accepted is KEY:fence:last)"},
			slotFlag, seatsFlag}},
		Bidder:  true,
		Summary: "the booking alone, through the slot's fencing check: refused when TOKEN is older than the newest the slot accepted",
		Run:     fencedWriteMacro},
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
