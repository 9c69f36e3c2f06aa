package explore

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// pauseLockModel is an independent model of testdata/pause-lock.lab
// under --no-reduce --faults 1: two clients each take the lock (SET NX:
// the one that finds it taken is done), note it (RPUSH), and release it
// (compare-and-delete). At any turn while the lock exists (it has a TTL)
// and no fault has happened yet, one fault may come instead of a
// command: time runs on until the lock expires. It counts the schedules
// by verdict: the holder whose lock expired under it before its release
// (EXPIRED WHILE WORKING), and a second client taking the lock while the
// first still believed it held it (OVERLAP: from its SET to its release).
func pauseLockModel() map[string]int {
	counts := map[string]int{}
	type state struct {
		lock     int // the holder, or -1
		pc       [2]int
		fault    bool
		holding  [2]bool
		expired  bool
		overlaps bool
	}
	var walk func(s state)
	walk = func(s state) {
		var opts []int
		for i := range 2 {
			if s.pc[i] < 3 {
				opts = append(opts, i)
			}
		}
		if len(opts) == 0 {
			counts[modelGroup(s.expired, s.overlaps)]++
			return
		}
		if !s.fault && s.lock >= 0 {
			opts = append(opts, 2) // the fault
		}
		for _, o := range opts {
			n := s
			switch {
			case o == 2:
				n.lock, n.fault, n.expired = -1, true, true
			case n.pc[o] == 0 && n.lock < 0:
				n.lock, n.pc[o], n.overlaps, n.holding[o] = o, 1, n.overlaps || n.holding[1-o], true
			case n.pc[o] == 0:
				n.pc[o] = 3 // not acquired: done
			case n.pc[o] == 1:
				n.pc[o] = 2
			default:
				if n.lock == o {
					n.lock = -1
				}
				n.pc[o], n.holding[o] = 3, false
			}
			walk(n)
		}
	}
	walk(state{lock: -1})
	return counts
}

// modelGroup names a model's outcome as the summary does.
func modelGroup(expired, overlaps bool) string {
	switch {
	case overlaps:
		return "EXPIRED WHILE WORKING + OVERLAP"
	case expired:
		return "EXPIRED WHILE WORKING"
	}
	return allClear
}

// TestFaultsPauseModel: explore --no-reduce --faults 1 runs exactly the
// model's schedules of pause-lock.lab, with the model's verdicts; with no
// fault every schedule is all clear; and the reduced search finds the
// same verdicts in fewer schedules.
func TestFaultsPauseModel(t *testing.T) {
	want := pauseLockModel()
	if want[allClear] != 6 || len(want) != 3 {
		t.Fatalf("the model: %v", want)
	}
	sc := script(t, "testdata/pause-lock.lab")
	raw, err := Explore(context.Background(), sc, Options{Raw: true, Faults: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(raw.Groups, want) || !raw.Complete {
		t.Errorf("explore: %v (complete %v), the model: %v", raw.Groups, raw.Complete, want)
	}
	none, err := Explore(context.Background(), sc, Options{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := none.Summary(); got != "explored 6 schedules (complete, raw): 6 all clear" {
		t.Errorf("without faults: %s", got)
	}
	reduced, err := Explore(context.Background(), sc, Options{Faults: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups(reduced), groups(raw)) || reduced.Schedules >= raw.Schedules {
		t.Errorf("raw: %s\nreduced: %s", raw.Summary(), reduced.Summary())
	}
}

// TestFaultsShortestStory: on the lesson's locked booking, which holds in
// every order, one pause is enough for a double booking, and the shortest
// such story is a pause right after the first holder checked the count:
// its lock expires, the other bidder takes it, checks and books too. The
// report is the same, byte for byte, every time.
func TestFaultsShortestStory(t *testing.T) {
	sc := script(t, "../../scripts/locked-booking.lab")
	var reports [2]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, Options{Faults: 1, Property: "double-booking"})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	for _, want := range []string{
		"  3. alice LLEN room:2pm:bookings\n  4. ⚡ time +2s\n  5. bob SET lock:room:2pm token-bob NX PX 2000\n",
		"⚡ time runs on 2s while no session runs (a pause): lock:room:2pm's TTL runs out\n",
		"verdict: DOUBLE BOOKING",
	} {
		if !strings.Contains(reports[0], want) {
			t.Errorf("the report lacks %q:\n%s", want, reports[0])
		}
	}
	if reports[0] != reports[1] {
		t.Errorf("two reports differ:\n%s\n---\n%s", reports[0], reports[1])
	}
}
