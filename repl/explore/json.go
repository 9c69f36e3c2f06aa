package explore

import (
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
	Steps        int            `json:"steps"`
	Groups       map[string]int `json:"verdicts"`
	ExpectFailed int            `json:"script_failed"`
	Shortest     int            `json:"shortest_failing,omitempty"`
	Replay       string         `json:"replay,omitempty"` // the command that shows the shortest failing schedule
	Failing      []jsonSchedule `json:"failing"`
}

// jsonSchedule is one failing schedule.
type jsonSchedule struct {
	Number   int      `json:"number"`
	Choices  []int    `json:"choices"`
	Verdict  string   `json:"verdict"`
	Status   int      `json:"exit_status"`
	Preempts int      `json:"preemptions"`
	Steps    []string `json:"steps"`
}

// WriteJSON writes the search as one JSON document.
func (r *Result) WriteJSON(w io.Writer, sc Script) error {
	j := jsonReport{Script: sc.Name, Mode: r.Mode, Property: r.opts.Property, Complete: r.Complete, Bounded: r.Bounded,
		Schedules: r.Schedules, Cut: r.Cut, Steps: r.Steps, Groups: map[string]int{},
		ExpectFailed: r.ExpectFailed, Failing: []jsonSchedule{}}
	for k, n := range r.Groups {
		j.Groups[strings.ToLower(k)] = n
	}
	if r.shortest != nil {
		j.Shortest, j.Replay = r.shortest.number, r.replayCommand(sc, r.shortest.number)
	}
	for _, o := range r.failing {
		j.Failing = append(j.Failing, jsonSchedule{Number: o.number, Choices: picks(o.choices),
			Verdict: o.group(), Status: o.status, Preempts: o.preempts, Steps: o.steps})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
