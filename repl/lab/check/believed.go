package check

import (
	"slices"
	"strings"
	"time"
)

// This file is the checker's side of the oracle (repl/explore/oracle):
// what the annotator believes the server holds, for a test to compare
// with what the server really holds. PROVISIONAL: written over the
// annotator's internals as they are; the state-based judge replaces it.

// LockBelief is what the checker believes the server holds at a lock
// key: Token with Deadline (zero: no expiry) when Held, else nothing.
// Held says the key held Token when the checker last saw it change; a
// Deadline that has passed means the checker believes it expired then.
type LockBelief struct {
	Key, Token string
	Held       bool
	Deadline   time.Time // zero: no expiry
}

// BelievedLocks is every lock key the checker has seen, sorted by Key.
func (a *Annotator) BelievedLocks() []LockBelief {
	out := make([]LockBelief, 0, len(a.locks))
	for key, l := range a.locks {
		b := LockBelief{Key: key}
		if h := l.current; h != nil && !h.released && h.deletedBy == "" {
			b.Token, b.Held, b.Deadline = h.token, true, h.expires
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(x, y LockBelief) int { return strings.Compare(x.Key, y.Key) })
	return out
}

// SlotBelief is how many bookings the checker believes a slot's list
// holds.
type SlotBelief struct {
	Key      string
	Bookings int64
}

// BelievedSlots is every slot the checker has seen, sorted by Key.
func (a *Annotator) BelievedSlots() []SlotBelief {
	out := make([]SlotBelief, 0, len(a.slots))
	for key, s := range a.slots {
		out = append(out, SlotBelief{Key: key, Bookings: int64(len(s.bookings))})
	}
	slices.SortFunc(out, func(x, y SlotBelief) int { return strings.Compare(x.Key, y.Key) })
	return out
}
