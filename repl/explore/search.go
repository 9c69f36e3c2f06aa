package explore

import (
	"context"
	"fmt"
	"io"
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

// Options choose the search: its bound, and its strategy. Raw,
// Preempt and Random are the flags' shorthands for the strategies that
// came first (--no-reduce, --preemptions K, --random N); a strategy
// with a flag of its own sets Strategy. strategy() reads them, and
// nothing else does: by default the search is reduced (sleep sets).
type Options struct {
	Bound
	Workers     int // schedules run at once (0: one per CPU)
	Raw         bool
	Preempt     bool           // bound the preemptions
	Preemptions int            // at most so many, when Preempt
	Random      int            // sample so many schedules at random (PCT) instead
	Seed        uint64         // a random search's seed
	Strategy    sched.Strategy // the search, when its flag names it (nil: by the shorthands)
	Color       bool           // replayed transcripts in colour (a terminal's)
	Property    string         // what fails a schedule: bug kinds and "expect", comma-separated ("": any bug or failure)
	Oracle      bool           // check the checker against the server after every step (package oracle)
	Plain       bool           // every schedule on a new server, its script read again (--plain: what the fast search must equal)
	JSON        bool           // the search is written as JSON (--json): keep every failing schedule's steps for WriteJSON
	Faults      int            // at most so many faults a schedule (--faults K; 0: none): see faults.go
	FaultKinds  string         // of these kinds, comma-separated (--fault-kinds; "": every kind)

	// runs stands in for runOnce in TestStopLeavesAStuckSchedule (nil:
	// runOnce), to run a schedule that does not end when told to.
	runs func(context.Context, Script, plan) (*outcome, error)
}

// run runs one schedule of the search.
func (o Options) run(ctx context.Context, sc Script, p plan) (*outcome, error) {
	if o.runs != nil {
		return o.runs(ctx, sc, p)
	}
	return runOnce(ctx, sc, p)
}

// strategy is the search o chooses.
func (o Options) strategy() sched.Strategy {
	switch {
	case o.Strategy != nil:
		return o.Strategy
	case o.Random > 0:
		return sched.PCT{N: o.Random}
	case o.Preempt:
		return sched.Preempt{Bound: o.Preemptions}
	case o.Raw:
		return sched.DFS{}
	}
	return sched.Reduce{}
}

// workers is how many schedules run at once.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// mode names the search in the summary: "raw", "reduced", "within 2
// preemptions, raw", "seed 3, PCT depth 3, raw" (a random search says
// its seed).
func (o Options) mode() string {
	st := o.strategy()
	if _, ok := st.(sched.Sampler); ok {
		return fmt.Sprintf("seed %d, %s", o.Seed, st.Mode()) + o.faultsMode()
	}
	return st.Mode() + o.faultsMode()
}

// flags are the explore flags that choose o's search, for a replay
// command: "--no-reduce ", "--random 50 --seed 2 " or "", then the
// bounds given.
func (o Options) flags() string {
	var b strings.Builder
	st := o.strategy()
	b.WriteString(st.Flags())
	if _, ok := st.(sched.Sampler); ok {
		fmt.Fprintf(&b, "--seed %d ", o.Seed)
	}
	if o.Schedules > 0 {
		fmt.Fprintf(&b, "--max-schedules %d ", o.Schedules)
	}
	if o.Steps > 0 {
		fmt.Fprintf(&b, "--max-steps %d ", o.Steps)
	}
	if o.Faults > 0 {
		fmt.Fprintf(&b, "--faults %d ", o.Faults)
	}
	if o.FaultKinds != "" {
		fmt.Fprintf(&b, "--fault-kinds %s ", o.FaultKinds)
	}
	return b.String()
}

// plan is how one schedule is run: the scheduler's plan, and what a
// replay keeps of it.
type plan struct {
	sched.Plan
	faults  func(faultRig, io.Writer) sched.Faults // the faults it may choose (nil: none)
	picture bool                                   // keep the run's timeline
	draw    int                                    // and draw it this wide at the end of the transcript (0: not)
	color   bool                                   // a replay's transcript in colour
	oracle  bool                                   // check the checker after every step (Options.Oracle)
}

// plan is the plan of the schedule of the choice list prefix, in o's
// search (a random search's: its samples' raw choices).
func (o Options) plan(prefix []int) plan {
	return plan{Plan: sched.Plan{Prefix: prefix, Chooser: o.strategy().Chooser()}, oracle: o.Oracle, faults: o.faultsOf()}
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
	broke        int            // schedules that broke the property (--property, or failed)
	failing      failingLog     // with Options.JSON: every one of them, in order, as --json writes it
	shortest     *outcome       // the shortest failing schedule, without its transcript
	opts         Options
	peakHeld     int // the most schedules the search held at once, run but not counted yet
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
	if !o.Plain {
		sc.prepared, sc.servers = prepared(sc), idleServers // read and checked once; servers reset in place
	}
	// A schedule's garbage is short-lived and small: collecting less
	// often runs a third more schedules a second.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if s, ok := o.strategy().(sched.Sampler); ok {
		return sample(ctx, sc, o, s, visit)
	}
	r := &Result{Groups: map[string]int{}, Mode: o.mode(), opts: o}
	p := &pool{ctx: ctx, sc: sc, o: o, b: o.Bound.orDefault(), r: r, visit: visit}
	err := p.search(o.workers())
	p.mu.Lock()
	r.peakHeld = p.peakHeld
	p.mu.Unlock()
	switch {
	case err != nil:
		return nil, err
	case r.Complete || r.Bounded != "":
		return r, nil
	}
	r.Bounded = "stopped"
	return r, ctx.Err()
}

// Failed reports whether any schedule failed.
func (r *Result) Failed() bool { return r.shortest != nil }

// add counts one schedule, and keeps what the result needs of it: its
// steps when it fails and --json asks for them, and the schedule itself
// (without its transcript) when it is the shortest failing one so far: a
// bug verdict before a failure of the script alone, then fewest steps,
// then the first found.
func (r *Result) add(o *outcome) {
	r.Steps += len(o.steps)
	if o.cut {
		r.Cut++
		return
	}
	r.Schedules++
	o.number = r.Schedules
	r.Groups[o.group()]++
	if o.status != 0 {
		r.ExpectFailed++
	}
	if !o.breaks(r.opts.Property) {
		return
	}
	r.broke++
	if r.opts.JSON {
		r.failing.add(jsonFailing(o))
	}
	if r.shortest == nil || shorter(o, r.shortest) {
		kept := *o
		kept.output = "" // the report replays it from its choices
		r.shortest = &kept
	}
}

// shorter orders failing schedules: a bug verdict first, then fewest
// faults, then fewest steps (a poll is one, a fault is one), then fewest
// preemptions, then the first in depth-first order.
func shorter(a, b *outcome) bool {
	if (len(a.bad) > 0) != (len(b.bad) > 0) {
		return len(a.bad) > 0
	}
	if a.faults != b.faults {
		return a.faults < b.faults
	}
	if len(a.schedule) != len(b.schedule) {
		return len(a.schedule) < len(b.schedule)
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
