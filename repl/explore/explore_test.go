package explore

import (
	"context"
	"fmt"
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

// bidderSchedules is the two-bidder model's every schedule, and the
// failing ones.
func bidderSchedules() (all, failing []string) { return biddersOnSeats(2, 1) }

// biddersOnSeats models n bidders on seats seats: each reads the count
// (step 1) and, if it saw room, books (step 2). It returns every
// interleaving and those that end with more bookings than seats.
func biddersOnSeats(n, seats int) (all, failing []string) {
	type bidder struct{ step, saw int }
	var walk func(count int, bs []bidder, trace []string)
	walk = func(count int, bs []bidder, trace []string) {
		moved := false
		for i, b := range bs {
			c := count
			switch {
			case b.step == 0:
				b.saw, b.step = c, 1
			case b.step == 1 && b.saw < seats:
				b.step, c = 2, c+1
			default:
				continue
			}
			next := slices.Clone(bs)
			next[i], moved = b, true
			walk(c, next, append(slices.Clip(trace), string(rune('a'+i))+string(rune('0'+b.step))))
		}
		if !moved {
			all = append(all, strings.Join(trace, " "))
			if count > seats {
				failing = append(failing, strings.Join(trace, " "))
			}
		}
	}
	walk(0, make([]bidder, n), nil)
	return all, failing
}

// readsSorted writes a model schedule in the normal form of its class of
// equivalent orders: only reads commute (two LLENs), so each run of
// consecutive reads is sorted, and two schedules are equivalent exactly
// when their normal forms are equal.
func readsSorted(schedule string) string {
	steps := strings.Fields(schedule)
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && strings.HasSuffix(steps[j], "1") {
			j++
		}
		slices.Sort(steps[i:j])
		i = max(j, i+1)
	}
	return strings.Join(steps, " ")
}

// labels writes a schedule's bidder steps as the model does: alice (the
// job `bid alice &`) is a, bob is b; main's steps are left out.
func labels(steps []string) string {
	var out []string
	seen := map[string]int{}
	for _, st := range steps {
		who, _, _ := strings.Cut(st, " ")
		if who == "main" {
			continue
		}
		seen[who]++
		out = append(out, map[string]string{"alice": "a", "bob": "b"}[who]+string(rune('0'+seen[who])))
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
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Raw: true}, "explored 4 schedules (complete, raw): 4 DOUBLE BOOKING"},
		{Options{}, "explored 2 schedules (complete, reduced): 2 DOUBLE BOOKING"},
	} {
		opts, want := c.opts, c.want
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
	if r.Schedules < 2 || !r.Complete || r.Groups[allClear] != r.Schedules || r.ExpectFailed != 0 || r.shortest != nil {
		t.Errorf("locked-booking: %s, %d failed the script", r.Summary(), r.ExpectFailed)
	}
}

// TestSleepsOnVirtualTime: a schedule's sleeps pass on virtual time: two
// jobs that sleep 40 s each, one after the other in either order (2
// schedules), end in far less wall-clock time than one of them would
// take. (The bookings' 0.3 s sleeps were the check before: 1 s of wall
// time for all their schedules, which a loaded machine could exceed.)
func TestSleepsOnVirtualTime(t *testing.T) {
	began := time.Now()
	r, err := Explore(context.Background(), inline("sleeps.lab", "sleep 40 & sleep 40 & wait\nSET a 1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 20*time.Second || r.Schedules == 0 {
		t.Errorf("%s in %v of wall-clock time; virtual time makes 40 s sleeps take next to none", r.Summary(), took)
	}
}

// TestSameOutput: the same script gives the same report, byte for byte.
func TestSameOutput(t *testing.T) {
	reports := reportTwice(t, script(t, "testdata/two-bidders.lab"), Options{})
	if reports[0] != reports[1] || !strings.Contains(reports[0], "verdict: DOUBLE BOOKING") {
		t.Errorf("two reports differ, or show no verdict:\n%s\n---\n%s", reports[0], reports[1])
	}
}

// reportTwice is the report of two searches of sc with o, each in full.
func reportTwice(t *testing.T, sc Script, o Options) [2]string {
	t.Helper()
	var reports [2]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, o)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	return reports
}

// TestSameRandomAnswers: SRANDMEMBER and SPOP answer the same in every
// run of a schedule (the embedded Redis is seeded), so a script that
// branches on them replays, and reports the same, byte for byte.
func TestSameRandomAnswers(t *testing.T) {
	sc := Script{Name: "random.lab", Dir: "../..", Text: []byte(`DEL s
SADD s a b c d e f g h i j k l m n o p
pick() { m=$(SRANDMEMBER s); SET "got:$1" "$m"; SPOP s 2; }
pick x & pick y & wait
expect GET got:x == none
`)}
	var reports [4]string
	for i := range reports {
		r, err := Explore(context.Background(), sc, Options{Raw: true})
		if err != nil {
			t.Fatal(err) // a run that did not replay the same way
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.String()
	}
	for i := range reports {
		if reports[i] != reports[0] {
			t.Fatalf("reports differ:\n%s\n---\n%s", reports[0], reports[i])
		}
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

// BenchmarkTwoBidders measures schedules per second on the issue's
// two- and three-bidder scripts, raw and reduced (each schedule: a fresh
// embedded Redis, shell and sessions, on in-process pipes).
func BenchmarkTwoBidders(b *testing.B) {
	for _, file := range []string{"two-bidders", "three-bidders"} {
		text, err := os.ReadFile("testdata/" + file + ".lab")
		if err != nil {
			b.Fatal(err)
		}
		sc := Script{Name: file + ".lab", Text: text, Dir: "../.."}
		for _, raw := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/raw=%v", file, raw), func(b *testing.B) {
				schedules := 0
				for b.Loop() {
					r, err := Explore(context.Background(), sc, Options{Raw: raw})
					if err != nil {
						b.Fatal(err)
					}
					schedules += r.Schedules
				}
				b.ReportMetric(float64(schedules)/b.Elapsed().Seconds(), "schedules/s")
			})
		}
	}
}

// traceClasses groups the model's schedules into classes of equivalent
// orders (Mazurkiewicz traces), by their normal forms; it returns the
// classes and the failing ones.
func traceClasses(schedules, failing []string) (all, bad map[string]bool) {
	all, bad = map[string]bool{}, map[string]bool{}
	for _, s := range schedules {
		all[readsSorted(s)] = true
	}
	for _, s := range failing {
		bad[readsSorted(s)] = true
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

// TestThreeBidders: three bidders on two seats, raw and reduced, against
// the model: every interleaving (90), those that overbook, and as many
// reduced schedules as the model has classes of equivalent orders.
func TestThreeBidders(t *testing.T) {
	all, failing := biddersOnSeats(3, 2)
	classes, badClasses := traceClasses(all, failing)
	sc := script(t, "testdata/three-bidders.lab")
	for _, c := range []struct {
		opts Options
		want [2]int
	}{{Options{Raw: true}, [2]int{len(all), len(failing)}}, {Options{}, [2]int{len(classes), len(badClasses)}}} {
		want := c.want
		r, err := Explore(context.Background(), sc, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Schedules != want[0] || r.Groups["OVERBOOKING"] != want[1] || r.ExpectFailed != want[1] || !r.Complete {
			t.Errorf("%s; the model: %d schedules, %d overbook", r.Summary(), want[0], want[1])
		}
	}
	if len(all) != 90 {
		t.Errorf("the model: %d schedules; the issue says 90", len(all))
	}
}

// preemptionModel counts the two-bidder model's schedules with at most k
// preemptions (a step of one bidder while the bidder that stepped last
// could have gone on), and the failing ones among them.
func preemptionModel(k int) (all, failing int) {
	schedules, bad := biddersOnSeats(2, 1)
	for _, s := range schedules {
		if preemptions(s) <= k {
			all++
			if slices.Contains(bad, s) {
				failing++
			}
		}
	}
	return all, failing
}

// preemptions counts a model schedule's preemptions: a step of another
// bidder right after a read that saw room (its booking could go next).
func preemptions(schedule string) int {
	steps := strings.Fields(schedule)
	n := 0
	for i := 1; i < len(steps); i++ {
		prev := steps[i-1]
		bookedNext := slices.Contains(steps[i:], prev[:1]+"2")
		if prev[1] == '1' && bookedNext && steps[i][0] != prev[0] {
			n++
		}
	}
	return n
}

// TestPreemptionBound: --preemptions K explores exactly the model's
// schedules with at most K preemptions.
func TestPreemptionBound(t *testing.T) {
	sc := script(t, "testdata/two-bidders.lab")
	for k := range 3 {
		all, failing := preemptionModel(k)
		r, err := Explore(context.Background(), sc, Options{Preempt: true, Preemptions: k})
		if err != nil {
			t.Fatal(err)
		}
		if r.Schedules != all || r.Groups["DOUBLE BOOKING"] != failing || !r.Complete {
			t.Errorf("k=%d: %s; the model: %d schedules, %d failing", k, r.Summary(), all, failing)
		}
	}
}

// TestJobsBeginByName: jobs begin one at a time in the order of their
// sessions' names, whatever order their goroutines come in, so what they
// print before their first command comes out the same in every run.
// Before, a job began under its starter's name (main, for all of them),
// and they began as their goroutines came: bob first about half the time.
func TestJobsBeginByName(t *testing.T) {
	sc := inline("begin.lab", "f() { echo \"$1 begins\"; SET k \"$1\"; }\nf bob & f carol & f alice & wait\n")
	for range 10 {
		_, err := explore(context.Background(), sc, Options{Raw: true, Bound: Bound{Schedules: 2}}, func(o *outcome) {
			a, b, c := strings.Index(o.output, "alice begins"), strings.Index(o.output, "bob begins"), strings.Index(o.output, "carol begins")
			if a < 0 || a > b || b > c {
				t.Fatalf("jobs began out of their names' order:\n%s", o.output)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
