package explore

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// errDiverged is a run that did not take the steps its choice list had
// taken before: the script does something the scheduler does not
// control.
var errDiverged = errors.New("the script does something the scheduler does not control ($SRANDOM, a host's clock?), so the same choices do not give the same run")

// seen is what a schedule ran before one of its choice points, and the
// options it met there: the schedule that starts with the same choices
// and picks another option there (pick) must run the same steps first,
// then that option.
type seen struct {
	steps []string
	opts  []string
	pick  int
}

// replayed checks that the run of prefix took the steps the schedule
// it came from took before its last choice point (and met as many
// options there), and that it picked no option past a choice point's.
func (p *pool) replayed(prefix []int, out *outcome) error {
	key := joinInts(prefix)
	was, ok := p.seen[key]
	delete(p.seen, key)
	if out.diverged {
		return fmt.Errorf("a schedule did not replay the same way (choices %s): %w", key, errDiverged)
	}
	if !ok {
		return nil
	}
	i := len(prefix) - 1
	if err := sameSteps(append(slices.Clip(was.steps), was.opts[was.pick]), out.steps); err != nil {
		return fmt.Errorf("choices %s: %w", key, err)
	}
	if i >= len(out.choices) || !slices.Equal(out.choices[i].Opts, was.opts) {
		var now []string
		if i < len(out.choices) {
			now = out.choices[i].Opts
		}
		return fmt.Errorf("choices %s: at step %d, one run could go on with %s, another with %s: %w",
			key, len(was.steps)+1, strings.Join(was.opts, " or "), cmp.Or(strings.Join(now, " or "), "none"), errDiverged)
	}
	return nil
}

// sameSteps reports the first step in which now differs from was, over
// was's steps.
func sameSteps(was, now []string) error {
	for j, st := range was {
		if j >= len(now) {
			return fmt.Errorf("step %d was `%s` in one run and never came in another: %w", j+1, st, errDiverged)
		}
		if now[j] != st {
			return fmt.Errorf("step %d was `%s` in one run and `%s` in another: %w", j+1, st, now[j], errDiverged)
		}
	}
	return nil
}
