package explore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// jsonReport is what --json prints: the counts, and every failing
// schedule's steps.
type jsonReport struct {
	Script       string         `json:"script"`
	Mode         string         `json:"mode"`
	Property     string         `json:"property,omitempty"`
	Complete     bool           `json:"complete"`
	Bounded      string         `json:"bounded,omitempty"`
	Schedules    int            `json:"schedules"`
	Cut          int            `json:"cut_as_equivalent"`
	Steps        int            `json:"steps"` // every command sent, a poll's repeats too (what --max-steps bounds)
	Groups       map[string]int `json:"verdicts"`
	ExpectFailed int            `json:"script_failed"`
	Shortest     int            `json:"shortest_failing,omitempty"`
	Replay       string         `json:"replay,omitempty"` // the command that shows the shortest failing schedule
	Failing      []jsonSchedule `json:"failing"`
}

// jsonSchedule is one failing schedule: its steps ("session command"), a
// poll as one, and how many times each poll went.
type jsonSchedule struct {
	Number   int        `json:"number"`
	Choices  []int      `json:"choices"`
	Verdict  string     `json:"verdict"`
	Status   int        `json:"exit_status"`
	Preempts int        `json:"preemptions"`
	Faults   int        `json:"faults,omitempty"` // --faults: how many of its steps are faults ("⚡ time +2s")
	Steps    []string   `json:"steps"`
	Polls    []jsonPoll `json:"polls,omitempty"`
}

// jsonPoll is a step that was a poll: its place among the steps (from
// 1), and how many times it went for the same answer.
type jsonPoll struct {
	Step  int `json:"step"`
	Sends int `json:"sends"`
}

// jsonSteps are a schedule's steps and polls as --json writes them.
func jsonSteps(o *outcome) ([]string, []jsonPoll) {
	steps := make([]string, len(o.schedule))
	var polls []jsonPoll
	for i, st := range o.schedule {
		steps[i] = st.String()
		if st.Repeats > 0 {
			polls = append(polls, jsonPoll{Step: i + 1, Sends: st.Sends()})
		}
	}
	return steps, polls
}

// jsonFailing is a failing schedule as --json writes it.
func jsonFailing(o *outcome) jsonSchedule {
	steps, polls := jsonSteps(o)
	return jsonSchedule{Number: o.number, Choices: picks(o.choices), Verdict: o.group(), Status: o.status,
		Preempts: o.preempts, Faults: o.faults, Steps: steps, Polls: polls}
}

// jsonCounts is the search's JSON document, without its failing
// schedules.
func (r *Result) jsonCounts(sc Script) jsonReport {
	j := jsonReport{Script: sc.Name, Mode: r.Mode, Property: r.opts.Property, Complete: r.Complete, Bounded: r.Bounded,
		Schedules: r.Schedules, Cut: r.Cut, Steps: r.Steps, Groups: map[string]int{},
		ExpectFailed: r.ExpectFailed, Failing: []jsonSchedule{}}
	for k, n := range r.Groups {
		j.Groups[strings.ToLower(k)] = n
	}
	if r.shortest != nil {
		j.Shortest, j.Replay = r.shortest.number, r.replayCommand(sc, r.shortest.number)
	}
	return j
}

// WriteJSON writes the search as one JSON document: the failing
// schedules' steps when the search was told it would be
// (Options.JSON). It writes them one at a time, between the brackets of
// the document's last field, as an encoder of the whole document would.
func (r *Result) WriteJSON(w io.Writer, sc Script) error {
	doc, err := json.MarshalIndent(r.jsonCounts(sc), "", "  ")
	if err != nil {
		return err
	}
	if r.failing.n == 0 {
		_, err := w.Write(append(doc, '\n'))
		return err
	}
	b := bufio.NewWriter(w)
	b.Write(bytes.TrimSuffix(doc, []byte("]\n}"))) // the document ends with its last field: "failing": []
	sep := "\n    "
	err = r.failing.each(func(s jsonSchedule) error {
		one, err := json.MarshalIndent(s, "    ", "  ")
		b.WriteString(sep)
		b.Write(one)
		sep = ",\n    "
		return err // never: a schedule is strings and numbers
	})
	if err != nil {
		return err
	}
	b.WriteString("\n  ]\n}\n")
	return b.Flush()
}
