package record

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/timeline"
)

// Acquired reads one Redlock acquisition: each node's answer, and what
// its client concluded (see package quorum); the timeline draws it as one
// event with each node's answer.
func (r *Recorder) Acquired(a quorum.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Acquired(a)
	r.unjudged++
	all := append(append([]quorum.Step{}, a.Set...), a.Released...)
	var on []string
	for _, s := range a.Set {
		if s.OK() {
			on = append(on, s.Node)
		}
	}
	got := fmt.Sprintf("%d/%d (%s)", len(on), a.Nodes, strings.Join(on, " "))
	reply := "not acquired: " + got
	if a.Granted {
		reply = fmt.Sprintf("holds it on %s, valid for %.2fs", got, a.Validity.Seconds())
	}
	r.keepSteps(a.Session, []string{"redlock", "acquire", a.Key, a.Token}, reply, a.Start, a.Set, all)
}

// Released reads one Redlock release, node by node.
func (r *Recorder) Released(rel quorum.Release) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Released(rel)
	r.unjudged++
	var on []string
	for _, s := range rel.Steps {
		if s.NoAnswer == "" && s.Reply.IsInt && s.Reply.Int == 1 {
			on = append(on, s.Node)
		}
	}
	reply := fmt.Sprintf("released on %d/%d (%s)", len(on), len(rel.Steps), strings.Join(on, " "))
	r.keepSteps(rel.Session, []string{"redlock", "release", rel.Key, rel.Token}, reply, rel.At, rel.Steps, rel.Steps)
}

// keepSteps keeps a Redlock acquisition or release for the timeline: one
// event from start to the last answer, each node's answer to shown (the
// SETs of an acquisition; its releases on failure follow at once). r.mu is
// held.
func (r *Recorder) keepSteps(session string, args []string, reply string, start time.Time, shown, all []quorum.Step) {
	e := timeline.Event{Session: session, Args: args, Reply: reply, Start: start, End: start}
	for _, s := range all {
		e.End = maxTime(e.End, s.End)
	}
	for _, s := range shown {
		e.Steps = append(e.Steps, timeline.Step{Node: s.Node, Args: s.Args, Answer: answer(s), Start: s.Start, End: s.End})
	}
	r.add(e)
}

// answer is a node's answer as a timeline's column shows it.
func answer(s quorum.Step) string {
	switch {
	case s.NoAnswer == "node down":
		return "down"
	case strings.HasPrefix(s.NoAnswer, "timeout"):
		return "timeout"
	case s.NoAnswer != "":
		return "no answer"
	case s.Reply.Err != "":
		return "(error)"
	case s.Reply.Nil:
		return "(nil)"
	case s.Reply.IsInt:
		return strconv.FormatInt(s.Reply.Int, 10)
	}
	return s.Reply.Str
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Fault reads something session did to the Redlock nodes (what says it,
// as its word printed it): the timeline shows it in session's lane.
func (r *Recorder) Fault(session, what string, f quorum.Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Fault(f)
	if what != "" {
		r.notes = append(r.notes, timeline.TimedNote{Note: check.Note{Session: session, Level: check.Info, Text: what}, At: f.At, Seq: r.kept})
	}
}

// Redlock is the Redlock findings on the nodes of lab (quorum.AllLabs:
// every `redlock up` of the run), and how many grants there were: the
// same findings the run's verdict lists.
func (r *Recorder) Redlock(lab int) ([]check.Finding, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quorum.Findings(lab)
}
