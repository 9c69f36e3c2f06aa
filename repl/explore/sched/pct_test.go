package sched

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// orders are the orders of some schedules.
func orders(rs []result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.order
	}
	return out
}

// TestPCTSameSeed: seed S draws the same orders, sample by sample, every
// time; another seed draws others.
func TestPCTSameSeed(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET y 1", "GET x"}, "c": {"INCR x", "INCR y"}}
	s := PCT{N: 40}
	once, again := orders(sample(t, l, s, 7, 40)), orders(sample(t, l, s, 7, 40))
	if !slices.Equal(once, again) {
		t.Errorf("seed 7 twice:\n%q\n%q", once, again)
	}
	for i := range 5 {
		a := run(t, l, Plan{Chooser: s.Sample(7, i, 6)})
		b := run(t, l, Plan{Chooser: s.Sample(7, i, 6)})
		if a.order != b.order {
			t.Errorf("sample %d of seed 7: %q, then %q", i, a.order, b.order)
		}
	}
	if other := orders(sample(t, l, s, 8, 40)); slices.Equal(once, other) {
		t.Errorf("seeds 7 and 8 drew the same %q", once)
	}
	if distinct := len(slices.Compact(sorted(once))); distinct < 5 {
		t.Errorf("40 samples drew %d distinct orders: %q", distinct, once)
	}
}

// TestPCTOrders: every sample is an order of the lab, with at most
// PCTDepth-1 preemptions (a session loses its turn while it could go on
// only where its priority drops); its choice list replays it. Two
// sessions of two commands have 6 orders, none with more than 2
// preemptions, and 200 samples draw all 6.
func TestPCTOrders(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3", "SET x 4"}}
	all := interleavings(l)
	seen := map[string]bool{}
	for _, r := range sample(t, l, PCT{N: 200}, 1, 200) {
		seen[r.order] = true
		if _, ok := slices.BinarySearch(all, r.order); !ok || r.Preempts > PCTDepth-1 {
			t.Errorf("%q: %d preemptions", r.order, r.Preempts)
		}
		if again := run(t, l, Plan{Prefix: picks(r.Choices), Chooser: PCT{}.Chooser()}); again.order != r.order || again.Diverged {
			t.Errorf("choices %v drew %q, replayed %q", picks(r.Choices), r.order, again.order)
		}
	}
	if len(seen) != len(all) {
		t.Errorf("200 samples drew %d of the %d orders: %v", len(seen), len(all), seen)
	}
}

// blocks reports whether steps are each session's two steps one after
// the other.
func blocks(steps []string) bool {
	for i := 0; i < len(steps); i += 2 {
		if i+1 >= len(steps) || steps[i][0] != steps[i+1][0] {
			return false
		}
	}
	return true
}

// TestPCTPriorities: with no change point, the session with the highest
// priority runs to its end, then the next: no preemption. A change point
// after step 1 drops the session that took it below every other, which
// then run to their ends before it goes on. Which session goes first is
// the draw's.
func TestPCTPriorities(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3", "SET x 4"}, "c": {"SET x 5", "SET x 6"}}
	firsts := map[byte]bool{}
	for i := range uint64(20) {
		r := run(t, l, Plan{Chooser: &priorities{rng: rand.New(rand.NewPCG(9, i)), prio: map[string]int{}}})
		if s := strings.Fields(r.order); r.Preempts != 0 || !blocks(s) {
			t.Errorf("no change point: %q, %d preemptions", r.order, r.Preempts)
		}
		firsts[r.order[0]] = true
		p := &priorities{rng: rand.New(rand.NewPCG(9, i)), prio: map[string]int{}, changes: []int{1}}
		r = run(t, l, Plan{Chooser: p})
		if s := strings.Fields(r.order); r.Preempts != 1 || s[len(s)-1][0] != s[0][0] || !blocks(s[1:len(s)-1]) {
			t.Errorf("a change point after step 1: %q, %d preemptions", r.order, r.Preempts)
		}
	}
	if len(firsts) != 3 {
		t.Errorf("20 draws of priorities put %d sessions first, want each of the 3", len(firsts))
	}
}
