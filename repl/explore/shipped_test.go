package explore

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// summaryShape is a summary line: how many schedules, complete or the
// bound, then the groups (bug kinds joined by +, or all clear).
var summaryShape = regexp.MustCompile(`^explored (\d+) schedules? \((complete|bounded at \d+ (schedules|steps)), (raw|reduced)\): \d+ ([A-Z +-]+|all clear|no verdict)(, \d+ ([A-Z +-]+|all clear|no verdict))*$`)

// shipped says, from each lesson script's own comments, what every
// schedule must show (all) and what none may (none); "all clear" in all
// means every schedule's verdict said so. refused names the word a script is refused for.
var shipped = map[string]struct {
	all, none []string
	some      string
	refused   string
}{
	"double-booking":        {some: "DOUBLE BOOKING"},
	"locked-booking":        {all: []string{allClear}},
	"blind-unlock":          {all: []string{"WRONG-OWNER DEL"}},
	"eval-release":          {all: []string{"OVERLAP"}, none: []string{"WRONG-OWNER DEL"}},
	"fencing":               {all: []string{"OVERLAP"}, none: []string{"DOUBLE BOOKING", "WRONG-OWNER DEL"}},
	"ttl-overlap":           {all: []string{"OVERLAP", "DOUBLE BOOKING"}, none: []string{"WRONG-OWNER DEL"}},
	"watchdog":              {all: []string{allClear}},
	"locks-break":           {all: []string{"WRONG-OWNER DEL", "OVERLAP"}},
	"locks-fix":             {all: []string{"OVERLAP"}, none: []string{"WRONG-OWNER DEL"}},
	"load":                  {refused: "load"},
	"failover":              {refused: "cluster"},
	"failover-fixes":        {refused: "cluster"},
	"redlock":               {all: []string{allClear}},
	"redlock-clock-jump":    {all: []string{"TWO HOLDERS"}},
	"redlock-crash-restart": {all: []string{"TWO HOLDERS"}},
	"redlock-pause":         {all: []string{"OVERLAP", "DOUBLE BOOKING"}, none: []string{"TWO HOLDERS"}},
	"redlock-fencing":       {all: []string{"OVERLAP"}, none: []string{"DOUBLE BOOKING", "TWO HOLDERS"}},
}

// TestShippedScripts explores every shipped .lab (bounded lower with
// -short): each ends in under 10 s of CPU time, explored or refused, its
// summary has the summary's shape, and its groups are what the script
// teaches. (CPU time, not wall time: the search's steps are the same in
// every run, and what they cost is what the bound is for; on a loaded
// machine the wall clock says more about the other processes.)
func TestShippedScripts(t *testing.T) {
	paths, _ := filepath.Glob("../../scripts/*.lab")
	if len(paths) != len(shipped) {
		t.Errorf("%d shipped scripts, %d expected here: add the new one", len(paths), len(shipped))
	}
	b := Options{}
	if testing.Short() {
		b.Bound = Bound{Steps: 3000}
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".lab")
		t.Run(name, func(t *testing.T) {
			began, cpu := time.Now(), cpuTime(t)
			r, err := Explore(context.Background(), script(t, path), b)
			if took := cpuTime(t) - cpu; took > 10*time.Second && !raceOn {
				t.Errorf("took %v of CPU time (%v of wall time)", took, time.Since(began))
			}
			checkShipped(t, name, r, err)
		})
	}
}

func checkShipped(t *testing.T, name string, r *Result, err error) {
	want := shipped[name]
	var refused *RefusedError
	if want.refused != "" || err != nil {
		if !errors.As(err, &refused) || refused.Word != want.refused {
			t.Fatalf("want refused for %q, got %v", want.refused, err)
		}
		return
	}
	if !summaryShape.MatchString(r.Summary()) || r.ExpectFailed != 0 {
		t.Errorf("%s; %d schedules failed the script's expectations", r.Summary(), r.ExpectFailed)
	}
	for group, n := range r.Groups {
		kinds := strings.Split(group, " + ")
		for _, k := range want.all {
			if !slices.Contains(kinds, k) {
				t.Errorf("%d schedules %q lack %q", n, group, k)
			}
		}
		for _, k := range want.none {
			if slices.Contains(kinds, k) {
				t.Errorf("%d schedules show %s", n, k)
			}
		}
	}
	if want.some != "" && !strings.Contains(r.Summary(), want.some) {
		t.Errorf("no schedule shows %s: %s", want.some, r.Summary())
	}
}
