package check

import (
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/output"
)

// Reply is what the annotator needs of a server reply.
type Reply struct {
	Nil   bool
	Err   string // the error text, for an error reply
	Str   string // a status or bulk string
	Int   int64
	IsInt bool
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
}

// Event is one command of the run.
type Event struct {
	Session    string
	Args       []string
	Reply      Reply
	Start, End time.Time
	// Before and After hold the lock keys the command touched, as they
	// were just before and just after it, when the probe read them.
	Before, After []KeyState
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
