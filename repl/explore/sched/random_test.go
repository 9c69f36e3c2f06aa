package sched

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// walkChance is the chance a random walk takes order, by brute force: at
// each step, one of the sessions that have commands left (the lab has no
// sleeps), each as likely.
func walkChance(l lab, order string) float64 {
	left := map[string]int{}
	for name, cmds := range l {
		left[name] = len(cmds)
	}
	p := 1.0
	for _, step := range strings.Fields(order) {
		could := 0
		for _, n := range left {
			if n > 0 {
				could++
			}
		}
		p /= float64(could)
		left[step[:1]]--
	}
	return p
}

// TestRandomWalk: seed S draws the same orders twice, another seed
// others; each is an order of the lab whose choice list replays it; over
// 800 walks each order comes about as often as the brute force's chance
// of it says (a1 a2 b1 b2: 1/4, a1 b1 a2 b2: 1/8), within 5 standard
// deviations.
func TestRandomWalk(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3", "SET x 4"}}
	s := RandomWalk{N: 800}
	rs := sample(t, l, s, 5, 800)
	if again := orders(sample(t, l, s, 5, 40)); !slices.Equal(again, orders(rs[:40])) {
		t.Errorf("seed 5 twice:\n%q\n%q", orders(rs[:40]), again)
	}
	if other := orders(sample(t, l, s, 6, 40)); slices.Equal(other, orders(rs[:40])) {
		t.Errorf("seeds 5 and 6 drew the same %q", other)
	}
	count := map[string]int{}
	for i, r := range rs {
		count[r.order]++
		if i < 40 {
			if again := run(t, l, Plan{Prefix: picks(r.Choices), Chooser: s.Chooser()}); again.order != r.order {
				t.Errorf("choices %v drew %q, replayed %q", picks(r.Choices), r.order, again.order)
			}
		}
	}
	all := interleavings(l)
	for _, o := range all {
		p, n := walkChance(l, o), float64(len(rs))
		if sd := math.Sqrt(n * p * (1 - p)); math.Abs(float64(count[o])-n*p) > 5*sd {
			t.Errorf("%q came %d times in %d walks; its chance %.3f says %.0f ± %.0f", o, count[o], len(rs), p, n*p, 5*sd)
		}
	}
	if len(count) != len(all) {
		t.Errorf("%d walks drew %d of %d orders: %v", len(rs), len(count), len(all), count)
	}
}
