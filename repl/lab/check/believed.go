package check

import (
	"slices"
	"strings"
	"time"
)

// LockBelief is what the annotator believes the server holds in one lock
// key: the token of its holder and when it expires (Deadline zero: no
// expiry), or nothing (Held false). A test oracle compares it with what
// the server really holds.
type LockBelief struct {
	Key, Token string
	Held       bool
	Deadline   time.Time // zero: no expiry
}

// BelievedLocks is every lock key the run showed, sorted by Key, as the
// annotator believes the server holds it after the events it read: the
// latest acquisition, unless the key was seen deleted since (a release,
// another session's removal; a replacement is the next acquisition). A
// release attempt that left the key (a compare-and-delete with another
// token) ends its holder's belief, not the lock. An expiry is not
// applied: Deadline says when it falls, and whoever asks knows the time.
func (a *Annotator) BelievedLocks() []LockBelief {
	out := make([]LockBelief, 0, len(a.locks))
	for key, l := range a.locks {
		b := LockBelief{Key: key}
		if h := l.current; h != nil && !l.removed {
			b.Token, b.Held, b.Deadline = h.token, true, h.expires
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(x, y LockBelief) int { return strings.Compare(x.Key, y.Key) })
	return out
}

// SlotBelief is how many bookings the annotator believes a slot holds.
type SlotBelief struct {
	Key      string
	Bookings int64
}

// BelievedSlots is every slot whose length the run showed, sorted by
// Key, with the length the annotator believes its list has. A slot only
// named so far (a macro's --slot, before its LLEN) has no belief: what a
// command the probe did not read yet put in it, the annotator cannot know.
func (a *Annotator) BelievedSlots() []SlotBelief {
	out := make([]SlotBelief, 0, len(a.slots))
	for key, s := range a.slots {
		if !s.shown {
			continue
		}
		out = append(out, SlotBelief{Key: key, Bookings: s.length})
	}
	slices.SortFunc(out, func(x, y SlotBelief) int { return strings.Compare(x.Key, y.Key) })
	return out
}
