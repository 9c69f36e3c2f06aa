package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/output"
)

// Reply is what the annotator needs of a server reply.
type Reply struct {
	Nil   bool
	Err   string // the error text, for an error reply
	Str   string // a status or bulk string
	Int   int64
	IsInt bool
	// Queued is set for the status QUEUED: a command queued in the
	// user's own MULTI, which has not run yet (its EXEC is judged).
	Queued bool
}

// OK reports whether the reply is the status OK.
func (r Reply) OK() bool { return r.Str == "OK" && !r.Nil && r.Err == "" }

// KeyState is a lock key as the server showed it, read atomically with a
// command (in the same MULTI ... EXEC).
type KeyState struct {
	Key    string
	Exists bool
	Value  string
	PTTL   time.Duration // remaining time to live; negative: no expiry
	// Slot is set for a slot (a list of bookings): Len is its length as
	// LLEN answered, and Exists whether it has any.
	Slot bool
	Len  int64
}

// live reports whether s is a lock the server holds: a value, with time
// left or no expiry.
func (s KeyState) live() bool { return s.Exists && !s.Slot && s.PTTL != 0 }

// DBKey is how the notes name key on database db, when that is not the
// run's own: "lock:a (db 1)" (a key is its database and name).
func DBKey(db int, key string) string { return fmt.Sprintf("%s (db %d)", key, db) }

// Event is one command of the run.
type Event struct {
	Session    string
	Args       []string
	Reply      Reply
	Start, End time.Time
	// Before and After hold the lock keys the command touched, as they
	// were just before and just after it, when the probe read them.
	Before, After []KeyState
	// Loose is set when Before could not be read in the same step as the
	// command (the EXEC of a user's own MULTI, a blocking command): After
	// was read just after it, not atomically with it.
	Loose bool
	// Window is how long the probe's transaction took, from sending it to
	// its reply: a server that does not freeze its clock in a transaction
	// (the embedded Redis) counts an untouched key's PTTL down by as much
	// between the reads before and after.
	Window time.Duration
	// DB is the database the command ran on, when the probe read its
	// keys (HasDB).
	DB    int
	HasDB bool
}

// inDB is e with its keys named as on its database (DBKey) when that is
// not home, the database of the run's first probed command: the lock
// keys of database 1 are not those of database 0.
func (e Event) inDB(home int) Event {
	if !e.HasDB || e.DB == home {
		return e
	}
	rename := func(states []KeyState) []KeyState {
		out := make([]KeyState, len(states))
		for i, s := range states {
			out[i], out[i].Key = s, DBKey(e.DB, s.Key)
		}
		return out
	}
	keys := commands.Keys(e.Args)
	args := slices.Clone(e.Args)
	for i := 1; i < len(args); i++ {
		if slices.Contains(keys, args[i]) {
			args[i] = DBKey(e.DB, args[i])
		}
	}
	e.Args, e.Before, e.After = args, rename(e.Before), rename(e.After)
	return e
}

func (e Event) name() string { return strings.ToUpper(e.Args[0]) }

func (e Event) before(key string) (KeyState, bool) { return find(e.Before, key) }
func (e Event) after(key string) (KeyState, bool)  { return find(e.After, key) }

func find(states []KeyState, key string) (KeyState, bool) {
	for _, s := range states {
		if s.Key == key {
			return s, true
		}
	}
	return KeyState{}, false
}

// Level says how a note reads: a plain fact, a fix that held, or a bug
// (the printer's levels, which colour it).
type Level = output.Level

const (
	Info = output.Info
	Good = output.Good
	Bad  = output.Bad
)

// Note is one line the annotator adds under a reply.
type Note struct {
	Session string
	Level   Level
	Text    string
}
