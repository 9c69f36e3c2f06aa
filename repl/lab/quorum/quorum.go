package quorum

import (
	"slices"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// Step is one node's answer to one command a Redlock client sent it: its
// reply, or why there was none (NoAnswer: the node was down, the timeout
// passed).
type Step struct {
	Node       string
	Args       []string
	Reply      check.Reply
	NoAnswer   string
	Start, End time.Time
}

// OK reports whether the node said OK.
func (s Step) OK() bool { return s.NoAnswer == "" && s.Reply.OK() }

// deleted reports whether the node says the command deleted one key (a
// compare-and-delete's 1).
func (s Step) deleted() bool { return s.NoAnswer == "" && s.Reply.IsInt && s.Reply.Int == 1 }

// Attempt is one run of the acquisition: what every node answered, and
// what the client concluded from it (Granted, its Validity from Start).
type Attempt struct {
	Lab                 int // which `redlock up` the nodes are (another up: other servers)
	Nodes               int // how many nodes the lab has
	Session, Key, Token string
	Start               time.Time
	Validity            time.Duration
	Granted             bool
	Set, Released       []Step
}

// Release is a client's release on every node, sent at At.
type Release struct {
	Lab                 int
	Session, Key, Token string
	At                  time.Time
	Steps               []Step
}

// FaultKind is what the lab did to a node.
type FaultKind int

const (
	Jump    FaultKind = iota // its clock moved By
	Crash                    // it stopped, its data gone
	Down                     // every node of the lab stopped (Node is "")
	Restart                  // it came back, empty (nothing to judge: a crash emptied it)
)

// Fault is something the lab did to a node at At.
type Fault struct {
	Lab  int
	Node string
	Kind FaultKind
	By   time.Duration
	At   time.Time
}

// grant is an acquisition with a majority of OKs that its client took:
// held from the answers to the client's first clock read plus its
// validity, unless released before.
type grant struct {
	lab               int
	session, key, tok string
	nodes             []string
	from, valid       time.Time
	released          time.Time // zero until its client sent a release
}

// end is when the grant stopped being valid: its validity's end, or its
// release if that came first.
func (g *grant) end() time.Time {
	if !g.released.IsZero() && g.released.Before(g.valid) {
		return g.released
	}
	return g.valid
}

// command is a command a holder sent on the lab's own server.
type command struct {
	session string
	args    []string
	sent    time.Time
}

// Checker reads a run's Redlock steps and the commands its holders sent.
type Checker struct {
	grants   []*grant
	holds    []*hold
	faults   []Fault
	cmds     []command
	tried    map[int][]string // lab -> the sessions that got an answer to a SET
	missing  []string         // claims the answers do not back
	attempts int
}

// New makes an empty checker.
func New() *Checker { return &Checker{tried: map[int][]string{}} }

// Acquired reads one attempt: each OK starts a node's hold; a grant with a
// majority of OKs counts for the verdict; a grant the answers do not back
// is kept as missing evidence.
func (c *Checker) Acquired(a Attempt) {
	c.attempts++
	var on []string
	for _, s := range a.Set {
		if s.NoAnswer == "" && !slices.Contains(c.tried[a.Lab], a.Session) {
			c.tried[a.Lab] = append(c.tried[a.Lab], a.Session)
		}
		if s.OK() {
			on = append(on, s.Node)
			c.startHold(a, s)
		}
	}
	c.endHolds(a.Lab, a.Token, a.Released)
	if !a.Granted {
		return
	}
	if len(on) < a.Nodes/2+1 {
		c.missing = append(c.missing, check.Say("%s said it held %s with %d OK(s) of %d in the nodes' answers", a.Session, a.Key, len(on), a.Nodes))
		return
	}
	c.grants = append(c.grants, &grant{lab: a.Lab, session: a.Session, key: a.Key, tok: a.Token,
		nodes: on, from: answered(a), valid: a.Start.Add(a.Validity)})
}

// answered is when the client had every answer to its SETs: it holds the
// lock from then (its validity counts from before it sent them).
func answered(a Attempt) time.Time {
	at := a.Start
	for _, s := range a.Set {
		if s.End.After(at) {
			at = s.End
		}
	}
	return at
}

// Released reads a release: the holder's grants of its token end when it
// sent it; each node that deleted the key ends its hold there.
func (c *Checker) Released(r Release) {
	for _, g := range c.grants {
		if g.lab == r.Lab && g.key == r.Key && g.tok == r.Token && g.released.IsZero() && g.from.Before(r.At) {
			g.released = r.At
		}
	}
	c.endHolds(r.Lab, r.Token, r.Steps)
}

// Fault reads something the lab did to its nodes.
func (c *Checker) Fault(f Fault) {
	c.faults = append(c.faults, f)
	if f.Kind == Jump || f.Kind == Restart {
		return
	}
	for _, h := range c.holds {
		if h.lab == f.Lab && (f.Kind == Down || h.node == f.Node) && h.live(f.At) {
			h.until, h.end = f.At, endOf[f.Kind]
		}
	}
}

// Command reads a command a session sent on the lab's own server: one of
// a holder's may be sent past its validity (OVERLAP).
func (c *Checker) Command(session string, args []string, sent time.Time) {
	for _, g := range c.grants {
		if g.session == session {
			c.cmds = append(c.cmds, command{session, args, sent})
			return
		}
	}
}

// ttlOf is the TTL a SET asked for.
func ttlOf(args []string) time.Duration {
	_, _, ttl, _ := lockargs.IsSetNX(args)
	return ttl
}
