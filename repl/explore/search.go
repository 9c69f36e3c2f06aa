package explore

import (
	"context"
	"errors"
	"fmt"
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

// Result is what a search found.
type Result struct {
	Schedules    int            // schedules run
	Complete     bool           // every schedule was run
	Bounded      string         // else the bound that stopped the search: "bounded at 30000 steps"
	Groups       map[string]int // schedules by their verdict's bug kinds ("" for all clear)
	ExpectFailed int            // schedules whose script failed (an expectation, say)
	Steps        int            // steps run, over all schedules
	shortest     *outcome       // the shortest failing schedule
	shortestAt   int            // its number, from 1
}

// Explore runs sc once per schedule, depth first over the choice points
// (which waiting session's command goes next), with no reduction, until
// every schedule has run or the bound is reached.
func Explore(ctx context.Context, sc Script, b Bound) (*Result, error) {
	return explore(ctx, sc, b, func(*outcome) {})
}

// explore is Explore, showing each schedule's outcome to visit.
func explore(ctx context.Context, sc Script, b Bound, visit func(*outcome)) (*Result, error) {
	if err := refuse(sc); err != nil {
		return nil, err
	}
	b = b.orDefault()
	r := &Result{Groups: map[string]int{}}
	var prefix []int
	for {
		o, err := runOnce(ctx, sc, prefix)
		if err != nil {
			return nil, err
		}
		if o.diverged {
			return nil, errors.New("a schedule did not replay the same way: the script does something the scheduler does not control")
		}
		r.add(o)
		visit(o)
		next, more := nextPrefix(o.choices)
		if !more {
			r.Complete = true
			return r, nil
		}
		if r.Bounded = b.reached(r); r.Bounded != "" || ctx.Err() != nil {
			return r, ctx.Err()
		}
		prefix = next
	}
}

// Failed reports whether any schedule failed.
func (r *Result) Failed() bool { return r.shortest != nil }

// add counts one schedule, and keeps it when it is the shortest failing
// one so far: a bug verdict before a failure of the script alone, then
// fewest steps, then the first found.
func (r *Result) add(o *outcome) {
	r.Schedules++
	r.Steps += len(o.steps)
	r.Groups[groupName(o.bad)]++
	if o.status != 0 {
		r.ExpectFailed++
	}
	if o.failed() && (r.shortest == nil || shorter(o, r.shortest)) {
		r.shortest, r.shortestAt = o, r.Schedules
	}
}

func shorter(a, b *outcome) bool {
	if (len(a.bad) > 0) != (len(b.bad) > 0) {
		return len(a.bad) > 0
	}
	return len(a.steps) < len(b.steps)
}

// nextPrefix is the choice list of the next schedule depth first: the
// last choice point with an option left takes its next option, and the
// ones after it start over. It reports false when there is none.
func nextPrefix(cs []choice) ([]int, bool) {
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].pick+1 < cs[i].n {
			next := make([]int, i+1)
			for j := range i {
				next[j] = cs[j].pick
			}
			next[i] = cs[i].pick + 1
			return next, true
		}
	}
	return nil, false
}

// Picks is a schedule's choice list, for replaying it.
func picks(cs []choice) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.pick
	}
	return out
}

// Shortest is the shortest failing schedule run again with its choice
// list: its transcript, and whether it took the same steps.
func (r *Result) Shortest(ctx context.Context, sc Script) (*outcome, error) {
	if r.shortest == nil {
		return nil, nil
	}
	o, err := runOnce(ctx, sc, picks(r.shortest.choices))
	if err != nil {
		return nil, err
	}
	if fmt.Sprint(o.steps) != fmt.Sprint(r.shortest.steps) || o.diverged {
		return nil, errors.New("the shortest failing schedule did not replay the same way")
	}
	return o, nil
}
