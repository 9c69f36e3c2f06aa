package sched

import (
	"errors"
	"strings"

	"github.com/locklab/locklab/repl/explore/commute"
)

// Strategy is a search's rule for which schedules it runs. Mode and
// Flags name it (the summary's words; the flags a replay command gives).
// Chooser makes the chooser of one schedule: the search walks the tree of
// choice points depth first, each schedule replaying a prefix of choices
// (Plan.Prefix) and then letting its chooser pick, and a replay of any of
// the search's schedules (--replay, --choices) runs the same way.
type Strategy interface {
	Mode() string     // "raw", "reduced", "within 2 preemptions, raw"
	Flags() string    // "--no-reduce ", or "" for the default search
	Chooser() Chooser // a fresh one for each schedule
}

// Sampler is a strategy that draws Samples() schedules instead of
// walking them all: sample i of a search with seed seed, whose first
// schedule took steps steps, is chosen by Sample(seed, i, steps) from
// the start (no prefix). Its Chooser replays a drawn schedule's choice
// list. The search says the seed in its summary and its replay command.
type Sampler interface {
	Strategy
	Samples() int
	Sample(seed uint64, i, steps int) Chooser
}

// Chooser makes one schedule's choices. At each turn the scheduler asks
// it which of the commands that could go may go (Enabled) and, once the
// prefix is replayed, which of them goes (Pick); it tells it what
// happened: a command went (Went), virtual time moved on (Moved). A
// Chooser serves one schedule and is called with the scheduler's lock
// held, one call at a time: it need not lock, and must not block. The
// slices it is given are the scheduler's, for the call only; the
// commands in them are the same *Cmd from turn to turn while they wait.
type Chooser interface {
	// Enabled narrows can, the commands that could go now (one or
	// more, sorted by session, then command), to those the strategy
	// lets go, in the same order. None cuts the schedule: every way it
	// could go on is one that another schedule of the search runs
	// (ErrEquivalent).
	Enabled(at Point, can []*Cmd) []*Cmd
	// Pick chooses which of opts (two or more, as Enabled left them)
	// goes, past the replayed prefix.
	Pick(at Point, opts []*Cmd) int
	// Went says that opts[pick] went, as step at.Steps+1; opts are
	// Enabled's (one or more).
	Went(at Point, opts []*Cmd, pick int)
	// Moved says virtual time moved on to a sleeper's deadline.
	Moved()
}

// Point is where a schedule stands when a command is to go.
type Point struct {
	Steps    int    // steps run so far
	Last     string // the sender of the last step (Cmd.Sender; "" before the first)
	Preempts int    // steps so far that took the turn from a session that could go on
}

// Cmd is a session's command waiting at the gate, as a chooser sees it.
type Cmd struct {
	Session string         // the session that sends it, as steps name it ("alice@A" to a Redlock node)
	Server  string         // "" for the lab's own server, else the one it goes to (Sched.TurnOn)
	Line    string         // its words, joined by spaces
	Args    []string       // its words
	Access  commute.Access // what it touches
}

// Step is the command as a schedule's steps name it: "session command".
func (c *Cmd) Step() string { return c.Session + " " + c.Line }

// Sender is the session whose goroutine sends c: its Session, but
// "alice" for alice's command to a Redlock node ("alice@A"). A strategy
// that follows sessions (preemptions, priorities) follows senders: a
// Redlock client that goes on to its next node is not preempted.
func (c *Cmd) Sender() string {
	if c.Server == "" {
		return c.Session
	}
	return strings.TrimSuffix(c.Session, "@"+c.Server)
}

// first is the chooser that lets every command go and, past the prefix,
// picks the first one (sessions by name): the depth-first search's. The
// other choosers embed it for what they leave as it is.
type first struct{}

func (first) Enabled(_ Point, can []*Cmd) []*Cmd { return can }
func (first) Pick(Point, []*Cmd) int             { return 0 }
func (first) Went(Point, []*Cmd, int)            {}
func (first) Moved()                             {}

// ErrEquivalent cuts a schedule in which the chooser lets no waiting
// command go: any way it could go on is one that another schedule of the
// search runs (with commuting steps in another order, for sleep sets).
var ErrEquivalent = errors.New("equivalent to a schedule explored elsewhere")
