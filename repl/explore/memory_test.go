package explore

import (
	"context"
	"runtime"
	"testing"
	"weak"
)

// TestMemoryFlat: a search holds a handful of schedules at a time,
// however many it runs. Each is counted as soon as no schedule still to
// come can come before it, and let go: 2,000 raw schedules of the
// all-commuting 3 x 5 (1,000 with -short or -race), with one worker and
// with two (20 times the bound below: a search that kept what it counted
// would hold them all). The search's own count of the schedules it held (run, not
// counted yet) stays small, and of the schedules counted so far, looked
// at every 500 after a collection, only a few are still in memory.
func TestMemoryFlat(t *testing.T) {
	n := 2000
	if testing.Short() || raceOn {
		n = 1000
	}
	sc := script(t, "../../bench/three-by-five.lab")
	for _, workers := range []int{1, 2} {
		var counted []weak.Pointer[outcome]
		stillHeld := 0
		o := Options{Raw: true, Workers: workers, Bound: Bound{Schedules: n, Steps: 100 * n}}
		r, err := explore(context.Background(), sc, o, func(o *outcome) {
			if counted = append(counted, weak.Make(o)); len(counted)%500 == 0 {
				runtime.GC()
				stillHeld = max(stillHeld, inMemory(counted))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d workers: held up to %d before counting, %d counted still in memory", workers, r.peakHeld, stillHeld)
		if r.Schedules != n || r.peakHeld >= 100 || stillHeld >= 100 {
			t.Errorf("%d workers: %s; it held up to %d schedules before counting them, and up to %d of those it had counted (want fewer than 100 each)",
				workers, r.Summary(), r.peakHeld, stillHeld)
		}
	}
}

// inMemory is how many of the schedules are still in memory.
func inMemory(schedules []weak.Pointer[outcome]) int {
	n := 0
	for _, p := range schedules {
		if p.Value() != nil {
			n++
		}
	}
	return n
}
