package explore

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func script(t *testing.T, path string) Script {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Script{Name: path, Text: text, Dir: "../.."}
}

// bidderModel is an independent model of the two bidders: each
// reads the count (step 1) and, if it saw 0, books (step 2). It walks
// every interleaving and returns how many there are and the steps of
// those that end with 2 bookings ("a1 b1 a2 b2": a's read, b's read ...).
func bidderModel() (all int, failing []string) {
	schedules, failing := bidderSchedules()
	return len(schedules), failing
}

// bidderSchedules is the model's every schedule, and the failing ones.
func bidderSchedules() (all, failing []string) {
	type bidder struct{ step, saw int }
	var walk func(count int, bs [2]bidder, trace []string)
	walk = func(count int, bs [2]bidder, trace []string) {
		moved := false
		for i, b := range bs {
			c := count
			switch {
			case b.step == 0:
				b.saw, b.step = c, 1
			case b.step == 1 && b.saw < 1:
				b.step, c = 2, c+1
			default:
				continue
			}
			next := bs
			next[i], moved = b, true
			walk(c, next, append(slices.Clip(trace), string(rune('a'+i))+string(rune('0'+b.step))))
		}
		if !moved {
			all = append(all, strings.Join(trace, " "))
			if count == 2 {
				failing = append(failing, strings.Join(trace, " "))
			}
		}
	}
	walk(0, [2]bidder{}, nil)
	return all, failing
}

// labels writes a schedule's bidder steps as the model does: job3 (the
// script's third statement, alice) is a, job4 is b; main's steps are left
// out.
func labels(steps []string) string {
	var out []string
	seen := map[string]int{}
	for _, st := range steps {
		who, _, _ := strings.Cut(st, " ")
		if who == "main" {
			continue
		}
		seen[who]++
		out = append(out, map[string]string{"job3": "a", "job4": "b"}[who]+string(rune('0'+seen[who])))
	}
	return strings.Join(out, " ")
}

// TestTwoBidders: explore runs exactly the model's schedules, and the
// ones that double-book are the model's (both reads before both
// bookings: 4 of 6).
func TestTwoBidders(t *testing.T) {
	wantAll, wantFailing := bidderModel()
	if wantAll != 6 || len(wantFailing) != 4 {
		t.Fatalf("the model: %d schedules, %d failing; the issue says 6 and 4", wantAll, len(wantFailing))
	}
	var failing []string
	r, err := explore(context.Background(), script(t, "testdata/two-bidders.lab"), Options{Raw: true}, func(o *outcome) {
		if len(o.bad) > 0 {
			failing = append(failing, labels(o.steps))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(failing)
	slices.Sort(wantFailing)
	if r.Schedules != wantAll || !r.Complete || !slices.Equal(failing, wantFailing) {
		t.Errorf("explored %d (complete %v), double booked in %q; want %d, complete, %q", r.Schedules, r.Complete, failing, wantAll, wantFailing)
	}
	if got := r.Summary(); got != "explored 6 schedules (complete, raw): 4 DOUBLE BOOKING, 2 all clear" {
		t.Errorf("summary: %q", got)
	}
}

// TestShippedBookings: with --work 300ms both reads come at virtual time
// 0 and both bookings at 300ms, each pair in either order: 2 x 2 = 4 raw
// schedules, every one a double booking; the reads commute, so reduced,
// 2. The locked booking holds in all of its schedules, expectations
// included.
func TestShippedBookings(t *testing.T) {
	began := time.Now()
	for opts, want := range map[Options]string{
		{Raw: true}: "explored 4 schedules (complete, raw): 4 DOUBLE BOOKING",
		{}:          "explored 2 schedules (complete, reduced): 2 DOUBLE BOOKING",
	} {
		r, err := Explore(context.Background(), script(t, "../../scripts/double-booking.lab"), opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Summary(); got != want || r.ExpectFailed != 0 {
			t.Errorf("double-booking: %q, %d failed the script; want %q", got, r.ExpectFailed, want)
		}
	}
	r, err := Explore(context.Background(), script(t, "../../scripts/locked-booking.lab"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Schedules < 2 || !r.Complete || r.Groups[""] != r.Schedules || r.ExpectFailed != 0 || r.shortest != nil {
		t.Errorf("locked-booking: %s, %d failed the script", r.Summary(), r.ExpectFailed)
	}
	if took := time.Since(began); took > time.Second {
		t.Errorf("took %v of wall-clock time; virtual time should make it far quicker", took)
	}
}

// TestSameOutput: the same script gives the same report, byte for byte.
func TestSameOutput(t *testing.T) {
	sc := script(t, "testdata/two-bidders.lab")
	var reports [2]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	if reports[0] != reports[1] || !strings.Contains(reports[0], "verdict: DOUBLE BOOKING") {
		t.Errorf("two reports differ, or show no verdict:\n%s\n---\n%s", reports[0], reports[1])
	}
}

// TestBounded: a limit below the space says bounded, never complete.
func TestBounded(t *testing.T) {
	r, err := Explore(context.Background(), script(t, "testdata/two-bidders.lab"), Options{Raw: true, Bound: Bound{Schedules: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Schedules != 4 || r.Complete || !strings.Contains(r.Summary(), "(bounded at 4 schedules, raw)") {
		t.Errorf("limit 4: %s", r.Summary())
	}
}

// BenchmarkTwoBidders measures raw schedules per second on the issue's
// two-bidder script (each schedule: a fresh embedded Redis, shell and
// sessions over loopback TCP).
func BenchmarkTwoBidders(b *testing.B) {
	text, err := os.ReadFile("testdata/two-bidders.lab")
	if err != nil {
		b.Fatal(err)
	}
	sc := Script{Name: "two-bidders.lab", Text: text, Dir: "../.."}
	schedules := 0
	for b.Loop() {
		r, err := Explore(context.Background(), sc, Options{})
		if err != nil {
			b.Fatal(err)
		}
		schedules += r.Schedules
	}
	b.ReportMetric(float64(schedules)/b.Elapsed().Seconds(), "schedules/s")
}

// traceClasses groups the model's schedules into classes of equivalent
// orders (Mazurkiewicz traces): two schedules are equivalent when one
// becomes the other by swapping neighbouring steps that commute, and in
// the model only the two reads (a1, b1) commute. Each schedule is
// written in a normal form (a read before a read of a higher letter);
// it returns the classes and the failing ones.
func traceClasses(schedules, failing []string) (all, bad map[string]bool) {
	normal := func(s string) string {
		return strings.Replace(s, "b1 a1", "a1 b1", 1)
	}
	all, bad = map[string]bool{}, map[string]bool{}
	for _, s := range schedules {
		all[normal(s)] = true
	}
	for _, s := range failing {
		bad[normal(s)] = true
	}
	return all, bad
}

// TestTwoBiddersReduced: with reduction, explore runs one schedule per
// class of equivalent orders of the model (4: the two reads commute),
// and the failing ones are the model's failing classes (2).
func TestTwoBiddersReduced(t *testing.T) {
	schedules, failing := bidderSchedules()
	wantAll, wantBad := traceClasses(schedules, failing)
	if len(wantAll) != 4 || len(wantBad) != 2 {
		t.Fatalf("the model: %d classes, %d failing", len(wantAll), len(wantBad))
	}
	gotBad := map[string]bool{}
	r, err := explore(context.Background(), script(t, "testdata/two-bidders.lab"), Options{}, func(o *outcome) {
		if len(o.bad) > 0 && !o.cut {
			gotBad[labels(o.steps)] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	_, gotClasses := traceClasses(nil, slices.Collect(maps.Keys(gotBad)))
	if r.Schedules != len(wantAll) || !r.Complete || !maps.Equal(gotClasses, wantBad) {
		t.Errorf("reduced: %s, failing %v; want %d schedules, failing classes %v", r.Summary(), gotBad, len(wantAll), wantBad)
	}
	if got := r.Summary(); got != "explored 4 schedules (complete, reduced): 2 DOUBLE BOOKING, 2 all clear" {
		t.Errorf("summary: %q", got)
	}
}
