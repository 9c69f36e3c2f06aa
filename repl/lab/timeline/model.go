package timeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
)

// Kind is what an item in a lane is.
type Kind int

const (
	Command Kind = iota // a command and its reply
	Note                // an annotation under a reply
	Expiry              // a lock's TTL ran out: no client sent anything
)

// Item is one thing in a lane, at an offset from the start of the run.
type Item struct {
	At    time.Duration
	End   time.Duration // a command's end (its reply); At for the others
	Lane  string
	Kind  Kind
	Text  string      // the command line, the note, or what expired
	Reply string      // a command's reply, as redis-cli prints it raw, on one line
	Level check.Level // a note's
	Steps []NodeStep  // a Redlock acquisition's or release's: each node's answer
	On    []string    // the Redlock nodes an expiry happened on
	// Seq is a command's (or its note's) place in the order the annotator
	// read the commands (Event.Seq); 0 for what no client sent (an
	// expiry, an overlap's ends), which is placed by time.
	Seq int
}

// Bar is one holding of a lock, drawn in the lock's column.
type Bar struct {
	Key, Lane, Token string
	From, Until      time.Duration
	End              check.End
	DeletedBy        string
}

// Timeline is a run, ready to draw.
type Timeline struct {
	Lanes   []string // sessions, in order of first appearance
	Locks   []string // lock keys, in order of first acquisition
	Items   []Item   // by time
	Bars    []Bar
	Verdict []check.Finding
	Length  time.Duration // from the start to the last thing in the run
	Dropped int           // the run's oldest commands, no longer kept (record.MaxEvents)

	// Overlaps are the periods in which two or more sessions believed they
	// held the same lock (check.Overlaps), drawn as notes where each begins
	// and ends.
	Overlaps []check.OverlapPeriod

	// Nodes are the Redlock nodes of the run, if it used any, and
	// NodeBars each key held on one (Key is the node): see WithNodes.
	Nodes    []string
	NodeBars []Bar
}

// Event is a command as the timeline needs it.
type Event struct {
	Session    string
	Args       []string
	Reply      string // raw, on one line
	Nil        bool   // the reply was nil (Reply is then "")
	Start, End time.Time
	Seq        int // the order the annotator read it in (0: unknown); see Build
	Steps      []Step
}

// TimedNote is a note and when it was made (its command's end).
type TimedNote struct {
	check.Note
	At  time.Time
	Seq int // its command's Seq
}

// Build makes the timeline of a run that began at start.
func Build(start time.Time, events []Event, notes []TimedNote, holdings []check.Holding, verdict []check.Finding) Timeline {
	events, notes, holdings, verdict = shownRun(events, notes, holdings, verdict)
	var t Timeline
	off := func(at time.Time) time.Duration { return max(at.Sub(start), 0) }
	// Commands and notes in Seq order, each note after its command: what
	// happens at the same time is drawn in the order the annotator read it.
	for i, j := 0, 0; i < len(events) || j < len(notes); {
		if j == len(notes) || (i < len(events) && events[i].Seq <= notes[j].Seq) {
			t.addCommand(events[i], off)
			i++
		} else {
			t.addNote(notes[j], off)
			j++
		}
	}
	for _, h := range holdings {
		t.addBar(h, off)
	}
	t.addOverlaps(holdings, off)
	t.Items = inOrder(t.Items)
	for _, it := range t.Items {
		t.Length = max(t.Length, it.End)
	}
	t.Verdict = verdict
	return t
}

func (t *Timeline) addCommand(e Event, off func(time.Time) time.Duration) {
	t.addLane(e.Session)
	reply := e.Reply
	if e.Nil {
		reply = "(nil)"
	} else if reply == "" {
		reply = `""`
	}
	t.Items = append(t.Items, Item{At: off(e.Start), End: off(e.End), Lane: e.Session, Kind: Command, Text: commandLine(e.Args), Reply: reply, Steps: nodeSteps(e.Steps, off), Seq: e.Seq})
}

func (t *Timeline) addNote(n TimedNote, off func(time.Time) time.Duration) {
	t.addLane(n.Session)
	t.Items = append(t.Items, Item{At: off(n.At), End: off(n.At), Lane: n.Session, Kind: Note, Text: n.Text, Level: n.Level, Seq: n.Seq})
}

// inOrder puts items in the order the notes use: commands and their
// notes in the order the annotator read them (Seq: for probed commands,
// the order the server ran them, see repl/lab/probe), which is one source
// for the notes, the verdict and every picture; what no client sent (an
// expiry, an overlap's ends) by time among them, before the first command
// that ended after it. Without Seqs (0), everything goes by time.
func inOrder(items []Item) []Item {
	var sent, timed []Item
	for _, it := range items {
		if it.Seq > 0 {
			sent = append(sent, it)
		} else {
			timed = append(timed, it)
		}
	}
	slices.SortStableFunc(sent, func(a, b Item) int { return cmp.Compare(a.Seq, b.Seq) })
	slices.SortStableFunc(timed, func(a, b Item) int { return cmp.Compare(a.End, b.End) })
	out := make([]Item, 0, len(items))
	for _, it := range sent {
		for len(timed) > 0 && timed[0].End < it.End {
			out, timed = append(out, timed[0]), timed[1:]
		}
		out = append(out, it)
	}
	return append(out, timed...)
}

func (t *Timeline) addLane(name string) {
	if !slices.Contains(t.Lanes, name) {
		t.Lanes = append(t.Lanes, name)
	}
}

func (t *Timeline) addBar(h check.Holding, off func(time.Time) time.Duration) {
	t.addLane(h.Session)
	if !slices.Contains(t.Locks, h.Key) {
		t.Locks = append(t.Locks, h.Key)
	}
	b := Bar{Key: h.Key, Lane: h.Session, Token: h.Token, From: off(h.From), Until: off(h.Until), End: h.End, DeletedBy: h.DeletedBy}
	t.Bars = append(t.Bars, b)
	if h.End == check.Expired {
		text := check.Say("%s expired: %s's TTL ran out", h.Key, h.Session)
		t.Items = append(t.Items, Item{At: b.Until, End: b.Until, Lane: h.Session, Kind: Expiry, Text: text, Level: check.Bad})
	}
}

// commandLine shows a command's words, each quoted as redis-cli quotes a
// value when it is empty, holds a space or a quote, or holds a character
// a terminal would act on.
func commandLine(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, ` "`) || resp.Printable(a) != a {
			a = resp.QuoteText(a)
		}
		words[i] = a
	}
	return strings.Join(words, " ")
}

// holderIn is the last of bars on key that holds it at d.
func holderIn(bars []Bar, key string, d time.Duration) (Bar, bool) {
	for i := len(bars) - 1; i >= 0; i-- {
		if b := bars[i]; b.Key == key && b.From <= d && d < b.Until {
			return b, true
		}
	}
	return Bar{}, false
}

// offset formats d as +1.234s (+12.35s, +123.5s as it grows, so that it
// fits the time column).
func offset(d time.Duration) string {
	switch s := d.Seconds(); {
	case s < 10:
		return fmt.Sprintf("+%.3fs", s)
	case s < 100:
		return fmt.Sprintf("+%.2fs", s)
	case s < 1000:
		return fmt.Sprintf("+%.1fs", s)
	default:
		return fmt.Sprintf("+%.0fs", s)
	}
}
