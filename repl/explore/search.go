package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/explore/sched"
)

// Bound limits a search: it stops after Schedules schedules or once
// Steps steps have run over all of them, whichever comes first (0: the
// default). A bounded search says so in its summary.
type Bound struct{ Schedules, Steps int }

// The default bound: 10,000 schedules or 30,000 steps, a few seconds on
// a busy 2-core machine.
const (
	DefaultSchedules = 10000
	DefaultSteps     = 30000
)

// orDefault fills in the bound's zero fields.
func (b Bound) orDefault() Bound {
	if b.Schedules <= 0 {
		b.Schedules = DefaultSchedules
	}
	if b.Steps <= 0 {
		b.Steps = DefaultSteps
	}
	return b
}

// reached names the bound the search has reached, or "" for none.
func (b Bound) reached(r *Result) string {
	switch {
	case r.Schedules >= b.Schedules:
		return fmt.Sprintf("bounded at %d schedules", b.Schedules)
	case r.Steps >= b.Steps:
		return fmt.Sprintf("bounded at %d steps", b.Steps)
	}
	return ""
}

// Options choose the search: its bound, whether commuting steps are
// explored in one order only (the default) or in every order (Raw), and
// an optional preemption bound (CHESS), which explores raw schedules.
type Options struct {
	Bound
	Workers     int // schedules run at once (0: one per CPU)
	Raw         bool
	Preempt     bool   // bound the preemptions
	Preemptions int    // at most so many, when Preempt
	Random      int    // sample so many schedules at random (PCT) instead
	Seed        uint64 // the random search's seed
	Color       bool   // replayed transcripts in colour (a terminal's)
	Property    string // what fails a schedule: bug kinds and "expect", comma-separated ("": any bug or failure)
}

// workers is how many schedules run at once.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// mode names the search in the summary: "raw", "reduced" or "within 2
// preemptions, raw".
func (o Options) mode() string {
	switch {
	case o.Random > 0:
		return pctMode(o)
	case o.Preempt:
		if o.Preemptions == 1 {
			return "within 1 preemption, raw"
		}
		return fmt.Sprintf("within %d preemptions, raw", o.Preemptions)
	case o.Raw:
		return "raw"
	}
	return "reduced"
}

// flags are the explore flags that choose o's search, for a replay
// command: "--no-reduce " or "".
func (o Options) flags() string {
	var b strings.Builder
	switch {
	case o.Preempt:
		fmt.Fprintf(&b, "--preemptions %d ", o.Preemptions)
	case o.Raw:
		b.WriteString("--no-reduce ")
	case o.Random > 0:
		fmt.Fprintf(&b, "--random %d --seed %d ", o.Random, o.Seed)
	}
	if o.Schedules > 0 {
		fmt.Fprintf(&b, "--max-schedules %d ", o.Schedules)
	}
	if o.Steps > 0 {
		fmt.Fprintf(&b, "--max-steps %d ", o.Steps)
	}
	return b.String()
}

// plan is how one schedule is run: the scheduler's plan, and what a
// replay keeps of it.
type plan struct {
	sched.Plan
	picture bool // keep the run's timeline
	draw    int  // and draw it this wide at the end of the transcript (0: not)
	color   bool // a replay's transcript in colour
}

// plan is the schedule plan for a prefix under o.
func (o Options) plan(prefix []int) plan {
	p := sched.Plan{Prefix: prefix, Reduce: !o.Raw && !o.Preempt && o.Random == 0, Preemptions: -1}
	if o.Preempt {
		p.Preemptions = o.Preemptions
	}
	return plan{Plan: p}
}

// Result is what a search found.
type Result struct {
	Schedules    int            // schedules run to their end
	Cut          int            // schedules cut short as equivalent to one run (reduction)
	Complete     bool           // every schedule was run
	Bounded      string         // else the bound that stopped the search: "bounded at 30000 steps"
	Mode         string         // "raw", "reduced", "within 2 preemptions, raw"
	Groups       map[string]int // schedules by their verdict's bug kinds ("" for all clear)
	ExpectFailed int            // schedules whose script failed (an expectation, say)
	Steps        int            // steps run, over all schedules
	failing      []*outcome     // the failing schedules, in order
	shortest     *outcome       // the shortest failing schedule
	opts         Options
}

// Explore runs sc once per schedule, depth first over the choice points
// (which waiting session's command goes next), until every schedule has
// run or the bound is reached. Unless o.Raw, steps that commute run in
// one order only (sleep sets): the schedules are one per class of
// equivalent orders, and the same verdicts occur as in the raw search.
func Explore(ctx context.Context, sc Script, o Options) (*Result, error) {
	return explore(ctx, sc, o, func(*outcome) {})
}

// explore is Explore, showing each schedule's outcome to visit, in
// depth-first order.
func explore(ctx context.Context, sc Script, o Options, visit func(*outcome)) (*Result, error) {
	if err := refuse(sc); err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(sc.Dir); err == nil {
		sc.Dir = abs // once: a relative folder costs every run's shell a look at the working directory
	}
	// A schedule's garbage is short-lived and small: collecting less
	// often runs a third more schedules a second.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if o.Random > 0 {
		return sample(ctx, sc, o, visit)
	}
	b := o.Bound.orDefault()
	r := &Result{Groups: map[string]int{}, Mode: o.mode(), opts: o}
	p := &pool{ctx: ctx, sc: sc, o: o, b: b}
	outs, all, err := p.search(o.workers())
	if err != nil {
		return nil, err
	}
	for i, out := range outs {
		r.add(out)
		visit(out)
		if i == len(outs)-1 && all {
			r.Complete = true
			return r, nil
		}
		if r.Bounded = b.reached(r); r.Bounded != "" {
			return r, nil
		}
	}
	r.Bounded = "stopped"
	return r, ctx.Err()
}

// Failed reports whether any schedule failed.
func (r *Result) Failed() bool { return r.shortest != nil }

// add counts one schedule, and keeps it when it is the shortest failing
// one so far: a bug verdict before a failure of the script alone, then
// fewest steps, then the first found.
func (r *Result) add(o *outcome) {
	r.Steps += len(o.steps)
	if o.cut {
		r.Cut++
		return
	}
	r.Schedules++
	o.number = r.Schedules
	if o.breaks(r.opts.Property) {
		r.failing = append(r.failing, o)
	}
	r.Groups[o.group()]++
	if o.status != 0 {
		r.ExpectFailed++
	}
	if o.breaks(r.opts.Property) && (r.shortest == nil || shorter(o, r.shortest)) {
		r.shortest = o
	}
}

// shorter orders failing schedules: a bug verdict first, then fewest
// steps, then fewest preemptions, then the first in depth-first order.
func shorter(a, b *outcome) bool {
	if (len(a.bad) > 0) != (len(b.bad) > 0) {
		return len(a.bad) > 0
	}
	if len(a.steps) != len(b.steps) {
		return len(a.steps) < len(b.steps)
	}
	if a.preempts != b.preempts {
		return a.preempts < b.preempts
	}
	return slices.Compare(picks(a.choices), picks(b.choices)) < 0
}

// Picks is a schedule's choice list, for replaying it.
func picks(cs []sched.Choice) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.Pick
	}
	return out
}
