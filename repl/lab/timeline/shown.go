package timeline

import (
	"slices"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// What the timeline draws from the run (session names, keys, tokens,
// replies, notes) enters the model here, each string shown as check.Say
// shows a value: as it is when it is printable, quoted as redis-cli
// quotes it otherwise. Every renderer then draws it safely, and lanes,
// columns and bars that name the same session or key still match. A
// command's words are shown one by one, by commandLine.

// shownRun is Build's input with its names and values shown.
func shownRun(events []Event, notes []TimedNote, holdings []check.Holding, verdict []check.Finding) ([]Event, []TimedNote, []check.Holding, []check.Finding) {
	events, notes, holdings, verdict = slices.Clone(events), slices.Clone(notes), slices.Clone(holdings), slices.Clone(verdict)
	for i := range events {
		e := &events[i]
		e.Session, e.Reply = shown(e.Session), shown(e.Reply)
		e.Steps = slices.Clone(e.Steps)
		for j := range e.Steps {
			e.Steps[j].Answer = shown(e.Steps[j].Answer)
		}
	}
	for i := range notes {
		notes[i].Session, notes[i].Text = shown(notes[i].Session), shown(notes[i].Text)
	}
	for i := range holdings {
		h := &holdings[i]
		h.Key, h.Session, h.Token, h.DeletedBy = shown(h.Key), shown(h.Session), shown(h.Token), shown(h.DeletedBy)
	}
	for i := range verdict {
		verdict[i].Key, verdict[i].Text = shown(verdict[i].Key), shown(verdict[i].Text)
	}
	return events, notes, holdings, verdict
}

// shownHolds is WithNodes' input with its names and values shown.
func shownHolds(holds []quorum.Hold) []quorum.Hold {
	holds = slices.Clone(holds)
	for i := range holds {
		h := &holds[i]
		h.Key, h.Session, h.Token = shown(h.Key), shown(h.Session), shown(h.Token)
	}
	return holds
}

func shown(s string) string { return check.Say("%s", s) }
