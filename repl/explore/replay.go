package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/explore/order"
	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// Schedule is one schedule run again from its choice list, with normal
// output.
type Schedule struct {
	Number     int          // its place in the search's order (0: not from a search)
	Choices    []int        // its choice list
	Steps      []sched.Step // in the order the server ran them, a poll as one step
	sends      []string     // every command sent ("session command"), a poll's repeats too
	Transcript string       // its annotated transcript
	Timeline   timeline.Timeline
	Failed     bool // a bug verdict, or the script failed
}

// Replay runs sc once more on the schedule whose choice list is choices,
// under the search's rules o (a choice list counts the options of its
// own search: reduced, raw or bounded), and keeps its timeline; with
// draw > 0 the transcript ends with the timeline drawn that wide.
func Replay(ctx context.Context, sc Script, o Options, choices []int, draw int) (*Schedule, error) {
	p := o.plan(choices)
	p.picture, p.draw, p.color = true, draw, o.Color
	out, err := runOnce(ctx, sc, p)
	if err != nil {
		return nil, err
	}
	if out.cut {
		return nil, fmt.Errorf("--choices %s: every next step there commutes with one explored first; a reduced search's choice lists skip such steps (did it come from a --no-reduce search?)", joinInts(choices))
	}
	if err := fits(choices, out.choices); err != nil {
		return nil, err
	}
	return &Schedule{Choices: picks(out.choices), Steps: out.schedule, sends: out.steps, Transcript: out.output,
		Timeline: out.picture, Failed: out.breaks(o.Property)}, nil
}

// ReplayNumber runs schedule number n of the search o again (the number
// the report prints: its place in depth-first order, or among a random
// search's distinct samples).
func ReplayNumber(ctx context.Context, sc Script, o Options, n int, draw int) (*Schedule, error) {
	search := o
	if _, ok := o.strategy().(sched.Sampler); !ok {
		search.Schedules = n // depth first: the first n schedules are the same in any search
	}
	var found []int
	r, err := explore(ctx, sc, search, func(out *outcome) {
		if out.number == n {
			found = picks(out.choices)
		}
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("--replay %d: this search runs %d schedules", n, r.Schedules)
	}
	s, err := Replay(ctx, sc, o, found, draw)
	if s != nil {
		s.Number = n
	}
	return s, err
}

// fits reports a choice list that is not one of this search's: a pick
// past the options of its choice point, or more picks than the schedule
// has choice points (a list from another script, or from a search with
// other flags: reduced, --no-reduce, --preemptions).
func fits(choices []int, met []sched.Choice) error {
	hint := "replay a list the summary printed, with the flags of the search that printed it"
	for i, c := range met {
		if i < len(choices) && choices[i] >= c.N {
			return fmt.Errorf("choices %s: choice %d is %d, but only %d commands could go there (0 to %d): %s",
				joinInts(choices), i+1, choices[i], c.N, c.N-1, hint)
		}
	}
	if len(choices) > len(met) {
		return fmt.Errorf("choices %s: %d choices, but this schedule has %d choice points: %s",
			joinInts(choices), len(choices), len(met), hint)
	}
	return nil
}

// Shortest is the shortest failing schedule run again (nil when none
// failed); it fails when the run did not take the same steps.
func (r *Result) Shortest(ctx context.Context, sc Script, draw int) (*Schedule, error) {
	if r.shortest == nil {
		return nil, nil
	}
	s, err := Replay(ctx, sc, r.opts, picks(r.shortest.choices), draw)
	if err != nil {
		return nil, err
	}
	if err := sameSteps(r.shortest.steps, s.sends); err != nil || len(s.sends) != len(r.shortest.steps) {
		return nil, fmt.Errorf("the shortest failing schedule did not replay the same way: %w", cmpErr(err, errDiverged))
	}
	s.Number = r.shortest.number
	return s, nil
}

// Save writes s as a lab script that forces its order on any server: a
// `schedule` line naming each step's session, then the script itself.
// It writes with output.WriteFile: no symbolic link followed, no folder,
// pipe or device written to, and never over the script.
func Save(path string, sc Script, s *Schedule) error {
	if err := output.WriteFile(path, []byte(saved(sc, s)), sc.Name); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}

// saved is the text Save writes. Every step and the script's name are
// written on one comment line each, their line breaks escaped: a step's
// words are data (a Lua body, a value with a newline), never lines the
// saved script runs. The schedule line names each step's session, quoted
// as the shell reads it back (a job's name may come from its argument:
// book "$w" &); a poll is one step there too, and the order waits for
// its answer to change (package order).
func saved(sc Script, s *Schedule) string {
	var b strings.Builder
	number := ""
	if s.Number > 0 { // a search's schedule, not a --choices list's
		number = fmt.Sprintf("schedule #%d, ", s.Number)
	}
	fmt.Fprintf(&b, "# Saved by `locklab explore --save` from %s: %schoices %s, %d steps.\n",
		shellquote.OneLine(sc.Name), number, joinInts(s.Choices), len(s.Steps))
	b.WriteString("# On any server (locklab -p PORT THIS.lab) the sessions' commands go in this order:\n")
	if slices.ContainsFunc(s.Steps, func(st sched.Step) bool { return st.Repeats > 0 }) {
		b.WriteString("# (a poll is one step: its session sends it again, for as long as the answer stays the same)\n")
	}
	sessions := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		fmt.Fprintf(&b, "#   %d. %s\n", i+1, stepLine(st))
		sessions[i] = st.Session
		switch {
		case st.Session == sched.FaultSession:
			sessions[i] = st.Saved
		case st.Lost:
			sessions[i] = order.LostStep(st.Session)
		}
	}
	fmt.Fprintf(&b, "%s\n\n", order.Line(sessions))
	b.Write(sc.Text)
	return b.String()
}

// joinInts writes a choice list as --replay reads it: 0,1,1.
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ",")
}
