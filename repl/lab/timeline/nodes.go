package timeline

import (
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// Step is one Redlock node's answer to one command of an acquisition or
// a release (an Event with Steps is a whole `redlock acquire` or
// `redlock release`).
type Step struct {
	Node       string
	Args       []string
	Answer     string // short: OK, (nil), 1, 0, down, timeout, error
	Start, End time.Time
}

// NodeStep is a Step as drawn: its command line, at offsets in the run.
type NodeStep struct {
	Node, Command, Answer string
	At, End               time.Duration
}

func nodeSteps(steps []Step, off func(time.Time) time.Duration) []NodeStep {
	var out []NodeStep
	for _, s := range steps {
		out = append(out, NodeStep{Node: s.Node, Command: commandLine(s.Args), Answer: s.Answer, At: off(s.Start), End: off(s.End)})
	}
	return out
}

// nodeWidth is a Redlock node's column: "✕ expired", "┃ alice".
const nodeWidth = 9

// WithNodes adds the Redlock nodes' holds (package quorum's): a column
// per node, a bar per hold, and an item where holds ran out by their TTL
// (one for the holds of one token that ran out together). A timeline
// without holds or steps is returned as it was.
func (t Timeline) WithNodes(start time.Time, holds []quorum.Hold) Timeline {
	holds = shownHolds(holds)
	off := func(at time.Time) time.Duration { return max(at.Sub(start), 0) }
	for _, it := range t.Items {
		for _, s := range it.Steps {
			t.addNode(s.Node)
		}
	}
	var expired []quorum.Hold
	for _, h := range holds {
		t.addNode(h.Node)
		t.NodeBars = append(t.NodeBars, Bar{Key: h.Node, Lane: h.Session, Token: h.Token, From: off(h.From), Until: off(h.Until), End: h.End})
		if h.End == check.Expired {
			expired = append(expired, h)
		}
	}
	if len(t.Nodes) == 0 {
		return t
	}
	slices.Sort(t.Nodes)
	t.addNodeExpiries(expired, off)
	t.Items = inOrder(t.Items)
	for _, it := range t.Items {
		t.Length = max(t.Length, it.End)
	}
	return t
}

func (t *Timeline) addNode(n string) {
	if !slices.Contains(t.Nodes, n) {
		t.Nodes = append(t.Nodes, n)
	}
}

// addNodeExpiries adds an item for the holds that ran out by their TTL:
// one for those of the same token within 50ms of each other.
func (t *Timeline) addNodeExpiries(holds []quorum.Hold, off func(time.Time) time.Duration) {
	slices.SortStableFunc(holds, func(a, b quorum.Hold) int { return a.Until.Compare(b.Until) })
	for i := 0; i < len(holds); {
		h, on := holds[i], []string{holds[i].Node}
		j := i + 1
		for ; j < len(holds) && holds[j].Token == h.Token && holds[j].Until.Sub(h.Until) < 50*time.Millisecond; j++ {
			on = append(on, holds[j].Node)
		}
		text := check.Say("%s expired on %s: %s's TTL ran out there", h.Key, strings.Join(on, " "), h.Session)
		t.addLane(h.Session)
		t.Items = append(t.Items, Item{At: off(h.Until), End: off(h.Until), Lane: h.Session, Kind: Expiry, Text: text, Level: check.Info, On: on})
		i = j
	}
}

// nodeCell is a node's state on a row: its answer to the row's
// acquisition or release, or who holds a key there (┏ a hold that began
// since the previous row, ┃ one going on, ✕ how one ended since).
func (g grid) nodeCell(node string, it Item, prev, now time.Duration, first bool) string {
	if first {
		for _, s := range it.Steps {
			if s.Node == node {
				return s.Answer
			}
		}
	}
	return barCell(g.t.NodeBars, node, prev, now, first)
}

// answers are an item's nodes' answers on one line, for the compact form:
// "[A OK · B OK · C (nil)]".
func answers(it Item) string {
	if len(it.Steps) == 0 {
		return ""
	}
	parts := make([]string, len(it.Steps))
	for i, s := range it.Steps {
		parts[i] = s.Node + " " + s.Answer
	}
	return " [" + strings.Join(parts, " · ") + "]"
}

// nodesAsLocks is t with a column per Redlock node ("node A") beside the
// lock keys', its holds as bars there: the SVG draws them as it draws a
// lock's.
func (t Timeline) nodesAsLocks() Timeline {
	if len(t.Nodes) == 0 {
		return t
	}
	t.Locks = slices.Clone(t.Locks)
	t.Bars = slices.Clone(t.Bars)
	for _, n := range t.Nodes {
		t.Locks = append(t.Locks, "node "+n)
	}
	for _, b := range t.NodeBars {
		b.Key = "node " + b.Key
		t.Bars = append(t.Bars, b)
	}
	return t
}
