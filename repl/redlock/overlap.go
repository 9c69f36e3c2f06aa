package redlock

import (
	"fmt"
	"strings"
	"time"
)

// Command is a command a session sent on the lab's own server (the
// resource the lock guards), as the run recorded it.
type Command struct {
	Session string
	Args    []string
	Sent    time.Time
}

// Overlap is a holder that sent a command after its validity had ended,
// not having released the lock, while another holder's grant on the key
// was valid: it worked on as if it still held the lock.
type Overlap struct {
	Key, Holder, Other string
	OtherOn            []string
	Args               []string
	Late               time.Duration // from the end of the holder's validity to the command
}

func (o Overlap) String() string {
	return fmt.Sprintf("OVERLAP on %s: %s sent %s %.2fs after its validity ended, while %s held the lock (%s)",
		o.Key, o.Holder, shortCommand(o.Args), o.Late.Seconds(), o.Other, strings.Join(o.OtherOn, " "))
}

// Overlaps are, for each grant and each other grant on its key, the
// first of cmds its holder sent past its validity while the other was
// valid. A command covered by a newer grant of the holder's own does not
// count.
func (l *Lab) Overlaps(cmds []Command) []Overlap {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Overlap
	for _, g := range l.grants {
		for _, o := range l.grants {
			if o.key != g.key || o.token == g.token {
				continue
			}
			if c, ok := l.lateLocked(g, o, cmds); ok {
				out = append(out, Overlap{Key: g.key, Holder: g.holder, Other: o.holder, OtherOn: o.nodes,
					Args: c.Args, Late: c.Sent.Sub(g.valid)})
			}
		}
	}
	return out
}

// lateLocked is the first command g's holder sent after g's validity and
// before g's release, while o was valid. l.mu is held.
func (l *Lab) lateLocked(g, o *grant, cmds []Command) (Command, bool) {
	for _, c := range cmds {
		at := c.Sent
		if c.Session != g.holder || !at.After(g.valid) || (!g.released.IsZero() && at.After(g.released)) {
			continue
		}
		if at.Before(o.from) || !at.Before(o.end()) || l.validLocked(g.holder, g.key, at) {
			continue
		}
		return c, true
	}
	return Command{}, false
}

// validLocked reports whether holder had a valid grant on key at t.
func (l *Lab) validLocked(holder, key string, t time.Time) bool {
	for _, g := range l.grants {
		if g.holder == holder && g.key == key && !t.Before(g.from) && t.Before(g.end()) {
			return true
		}
	}
	return false
}

// shortCommand is a command as a verdict names it: a script's body or
// SHA1 shown as <script>.
func shortCommand(args []string) string {
	if len(args) > 1 && (strings.EqualFold(args[0], "EVAL") || strings.EqualFold(args[0], "EVALSHA")) {
		args = append([]string{args[0], "<script>"}, args[2:]...)
	}
	return strings.Join(args, " ")
}
