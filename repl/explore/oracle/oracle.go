package oracle

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/lab/check"
)

// Slack is how far the checker's remaining times may be from the
// server's and still be the same (see the package doc).
const Slack = time.Millisecond

// Server is the embedded server, read directly (server.Embedded).
type Server interface {
	Peek(key string) server.KeyState
}

// Checker is what the checker believes the server holds (lab.Run).
type Checker interface {
	Believed() ([]check.LockBelief, []check.SlotBelief)
}

// Oracle compares a run's checker with its server.
type Oracle struct {
	Server  Server
	Checker Checker
	Now     func() time.Time // the server's clock (explore's virtual time)

	appeared map[string]appearance // each lock key's value as the server first showed it, this run
}

// appearance is a value as it first appeared in a key: with a time to
// live (a lock, by the state rule) or without (a counter, until the
// value changes).
type appearance struct {
	value   string
	expires bool
}

// saw remembers a lock key's value when it is new.
func (o *Oracle) saw(key string, st server.KeyState) appearance {
	if !st.Exists || st.Type != "string" {
		delete(o.appeared, key)
		return appearance{}
	}
	if o.appeared == nil {
		o.appeared = map[string]appearance{}
	}
	if a, ok := o.appeared[key]; ok && a.value == st.Value {
		return a
	}
	o.appeared[key] = appearance{st.Value, st.TTL > 0}
	return o.appeared[key]
}

// Check compares the checker's beliefs with the server after the last of
// steps: nil when they agree, else a *Divergence.
func (o *Oracle) Check(steps []string) error {
	locks, slots := o.Checker.Believed()
	now := o.Now()
	var diffs []Diff
	for _, b := range locks {
		st := o.Server.Peek(b.Key)
		if counter(b, st, o.saw(b.Key, st)) {
			continue
		}
		if d, ok := compareLock(b, st, now); !ok {
			diffs = append(diffs, d)
		}
	}
	for _, b := range slots {
		if d, ok := compareSlot(b, o.Server.Peek(b.Key)); !ok {
			diffs = append(diffs, d)
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	return &Divergence{Step: len(steps), Steps: append([]string(nil), steps...), Diffs: diffs}
}

// Diff is one key on which the checker and the server differ.
type Diff struct {
	Key             string
	Checker, Server string // each side's state, in words
}

// counter reports whether the server holds, in a key the checker
// believes holds no lock, a value that appeared without a time to live:
// as the state rule reads the server (check.lockLike), that is a counter,
// not a lock, even when a TTL is put on it later (EXPIRE, GETEX, SET ...
// XX PX of the same value): nobody acquired it, nobody believes it holds
// it. The rule also calls it a lock when the run took the key with SET
// ... NX before, which is a command, not a state: then the checker
// believes it held, and the oracle compares. So fencing.lab's INCR of
// lock:room:2pm:fence and a plain `SET lock:a t-alice` on a free key are
// not compared; a value that appeared with a TTL is, whatever is done to
// it after (a PERSIST), and so is any key the checker believes held.
func counter(b check.LockBelief, st server.KeyState, first appearance) bool {
	return !b.Held && st.Exists && st.Type == "string" && !first.expires
}

// compareLock compares the checker's belief about a lock key with the key
// on the server at now.
func compareLock(b check.LockBelief, st server.KeyState, now time.Time) (Diff, bool) {
	d := Diff{Key: b.Key, Checker: believedLock(b, now), Server: serverLock(st)}
	left := b.Deadline.Sub(now) // the time the checker believes it has left
	expires := !b.Deadline.IsZero()
	if !st.Exists {
		return d, !b.Held || expires && left <= Slack
	}
	switch {
	case !b.Held, expires && left <= -Slack, st.Type != "string", st.Value != b.Token:
		return d, false
	case expires != (st.TTL > 0):
		return d, false
	}
	return d, !expires || (left-st.TTL).Abs() <= Slack
}

// compareSlot compares the bookings the checker counts on a slot with
// its list's length on the server.
func compareSlot(b check.SlotBelief, st server.KeyState) (Diff, bool) {
	d := Diff{Key: b.Key, Checker: fmt.Sprintf("%d booking(s)", b.Bookings), Server: serverSlot(st)}
	return d, st.Type == "list" && st.Len == b.Bookings || !st.Exists && b.Bookings == 0
}

func believedLock(b check.LockBelief, now time.Time) string {
	switch {
	case !b.Held:
		return "no lock"
	case b.Deadline.IsZero():
		return fmt.Sprintf("%q, no expiry", b.Token)
	case !b.Deadline.After(now):
		return fmt.Sprintf("%q, expired %s ago", b.Token, now.Sub(b.Deadline))
	}
	return fmt.Sprintf("%q, %s left", b.Token, b.Deadline.Sub(now))
}

func serverLock(st server.KeyState) string {
	switch {
	case !st.Exists:
		return "no key"
	case st.Type != "string":
		return "a " + st.Type
	case st.TTL <= 0:
		return fmt.Sprintf("%q, no expiry", st.Value)
	}
	return fmt.Sprintf("%q, %s left", st.Value, st.TTL)
}

func serverSlot(st server.KeyState) string {
	switch {
	case !st.Exists:
		return "no key (0 bookings)"
	case st.Type != "list":
		return "a " + st.Type
	}
	return fmt.Sprintf("a list of %d", st.Len)
}

// Divergence is a step after which the checker believed the server held
// something else than it did.
type Divergence struct {
	Step    int      // the step after which they differ, from 1
	Steps   []string // the schedule so far: "session command", in order
	Choices []int    // its choice list, for explore --choices (when known)
	Diffs   []Diff
}

func (d *Divergence) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the checker diverged from the server after step %d (%s):", d.Step, d.Steps[d.Step-1])
	for _, x := range d.Diffs {
		fmt.Fprintf(&b, "\n  %s: the checker believes %s; the server holds %s", x.Key, x.Checker, x.Server)
	}
	b.WriteString("\nthe schedule so far")
	if len(d.Choices) > 0 {
		fmt.Fprintf(&b, " (choices %s)", joinInts(d.Choices))
	}
	b.WriteString(":")
	for i, s := range d.Steps {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, s)
	}
	return b.String()
}

func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ",")
}
