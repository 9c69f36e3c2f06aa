package quorum

import (
	"time"

	"github.com/locklab/locklab/repl/lab/check"
)

// The ways a node's hold ends that a single server's lock does not have.
const (
	Crashed check.End = "crashed" // the node crashed, its data gone
	Stopped check.End = "stopped" // the nodes were stopped (redlock down, or up again)
)

var endOf = map[FaultKind]check.End{Crash: Crashed, Down: Stopped}

// hold is a key held on one node by one token: from the node's OK until
// it ended (until and end set), or until the node's TTL ran out.
type hold struct {
	lab                 int
	node, key, tok, who string
	from, asked         time.Time     // asked: when the SET was sent
	ttl                 time.Duration // as the SET asked; 0: no expiry
	until               time.Time     // zero while it has not ended by a release, crash or down
	end                 check.End
}

// startHold begins a's hold on s's node, from its OK.
//
// Attempts are read as they end, and two clients' attempts can take
// turns node by node (under explore's scheduler): a hold read later may
// have begun before one read already. Each hold is ended by what came
// after it on its node, in the node's own order: a crash (or the nodes'
// stop) read before it was, or another OK for the key, which says it
// was gone.
func (c *Checker) startHold(a Attempt, s Step) {
	h := &hold{lab: a.Lab, node: s.Node, key: a.Key, tok: a.Token, who: a.Session, from: s.End, asked: s.Start, ttl: ttlOf(s.Args)}
	for _, o := range c.holds {
		if o.lab != h.lab || o.node != h.node || o.key != h.key {
			continue
		}
		switch {
		case o.from.Before(h.from) && (o.until.IsZero() || h.from.Before(o.until)) && c.expiry(o).After(h.from):
			o.until, o.end = h.from, check.Expired // the node said OK: whatever it held for the key before was gone
		case h.from.Before(o.from) && (h.until.IsZero() || o.from.Before(h.until)):
			h.until, h.end = o.from, check.Expired // an OK read already came after this one
		}
	}
	for _, f := range c.faults {
		if f.Lab == h.lab && (f.Kind == Down || f.Kind == Crash && f.Node == h.node) && f.At.After(h.from) && (h.until.IsZero() || f.At.Before(h.until)) {
			h.until, h.end = f.At, endOf[f.Kind] // a crash read before this hold, which it ended
		}
	}
	c.holds = append(c.holds, h)
}

// endHolds ends, on each node whose answer says it deleted the key, tok's
// hold there.
func (c *Checker) endHolds(lab int, tok string, steps []Step) {
	for _, s := range steps {
		if !s.deleted() {
			continue
		}
		for _, h := range c.holds {
			if h.lab == lab && h.node == s.Node && h.tok == tok && h.live(s.End) {
				h.until, h.end = s.End, check.Released
			}
		}
	}
}

// live reports whether h had not ended by a release, crash or down at t
// (its expiry is not counted: see expiry).
func (h *hold) live(t time.Time) bool { return h.until.IsZero() && !h.from.After(t) }

// expiry is when h's TTL ran out on its node's clock, in the lab's time:
// the TTL from the node's reply, moved by each of the node's clock jumps
// that came before it ran out (a jump past it expires it at the jump).
// Zero: no TTL.
func (c *Checker) expiry(h *hold) time.Time {
	if h.ttl <= 0 {
		return time.Time{}
	}
	at := h.from.Add(h.ttl)
	for _, f := range c.faults {
		if f.Kind != Jump || f.Lab != h.lab || f.Node != h.node || f.At.Before(h.from) || !f.At.Before(at) {
			continue
		}
		at = at.Add(-f.By)
		if at.Before(f.At) {
			at = f.At
		}
	}
	return at
}

// Hold is one key held on one node by one token, as the timeline draws
// it: until its release, crash, the nodes' stop or its expiry, or Held
// (Until now) when none has come.
type Hold struct {
	Node, Key, Session, Token string
	From, Until               time.Time
	End                       check.End
}

// Holds are every node's holds, in the order they began, as of now.
func (c *Checker) Holds(now time.Time) []Hold {
	out := make([]Hold, 0, len(c.holds))
	for _, h := range c.holds {
		o := Hold{Node: h.node, Key: h.key, Session: h.who, Token: h.tok, From: h.from, Until: now, End: check.Held}
		exp := c.expiry(h)
		switch {
		case !exp.IsZero() && exp.Before(now) && (h.until.IsZero() || exp.Before(h.until)):
			o.Until, o.End = exp, check.Expired
		case !h.until.IsZero():
			o.Until, o.End = h.until, h.end
		}
		out = append(out, o)
	}
	return out
}
