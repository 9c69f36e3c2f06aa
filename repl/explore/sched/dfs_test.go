package sched

import (
	"slices"
	"testing"
	"time"
)

// TestDFSEveryOrder: the raw search runs every order of the sessions'
// commands once, as many as the brute force counts (4!/(2!2!) = 6 for two
// sessions of two, 6!/(2!2!2!) = 90 for three), depth first: the first is
// the sessions one after the other by name, and the choice lists come in
// increasing order. Nothing is cut.
func TestDFSEveryOrder(t *testing.T) {
	for _, c := range []struct {
		lab  lab
		want int
	}{
		{lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3", "SET x 4"}}, 6},
		{lab{"a": {"SET x 1", "GET y", "INCR z"}, "b": {"SET y 1", "GET x"}}, 10},
		{lab{"a": {"INCR x"}, "b": {"INCR x", "INCR y", "INCR z"}}, 4},
		{lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET y 1", "GET x"}, "c": {"INCR x", "INCR y"}}, 90},
	} {
		w := walk(t, c.lab, DFS{})
		all := interleavings(c.lab)
		if len(all) != c.want || !slices.Equal(sorted(w.orders), all) || w.cut != 0 {
			t.Errorf("%v: %d orders (%d cut), the brute force %d (want %d):\n%q\n%q", c.lab, len(w.orders), w.cut, len(all), c.want, sorted(w.orders), all)
		}
		if first := all[0]; w.orders[0] != first {
			t.Errorf("%v: first order %q, want %q", c.lab, w.orders[0], first)
		}
		for i := 1; i < len(w.runs); i++ {
			if slices.Compare(picks(w.runs[i-1].Choices), picks(w.runs[i].Choices)) >= 0 {
				t.Errorf("%v: schedule %d's choices %v come after %v", c.lab, i+1, picks(w.runs[i].Choices), picks(w.runs[i-1].Choices))
			}
		}
	}
}

// TestDFSVirtualTime: two commands are orders of each other only when
// both are ready at the same virtual instant. A command after a sleep
// goes only once no other command can (the clock moves when nothing
// else happens), so b's GET never comes after a's second SET: 2 orders,
// not the 3 of the untimed brute force. Two sleepers that wake at the
// same instant race; one that wakes later does not.
func TestDFSVirtualTime(t *testing.T) {
	for _, c := range []struct {
		lab  lab
		want []string
		end  time.Duration
	}{
		{lab{"a": {"SET x 1", "sleep 1s", "SET x 2"}, "b": {"GET x"}}, []string{"a1 b1 a2", "b1 a1 a2"}, time.Second},
		{lab{"a": {"sleep 1s", "SET x 1"}, "b": {"sleep 1s", "SET x 2"}}, []string{"a1 b1", "b1 a1"}, time.Second},
		{lab{"a": {"sleep 1s", "SET x 1"}, "b": {"sleep 2s", "SET x 2"}}, []string{"a1 b1"}, 2 * time.Second},
		{lab{"a": {"sleep 2s", "SET x 1"}, "b": {"sleep 1s", "SET x 2"}}, []string{"b1 a1"}, 2 * time.Second},
	} {
		w := walk(t, c.lab, DFS{})
		if !slices.Equal(sorted(w.orders), c.want) {
			t.Errorf("%v: %q, want %q", c.lab, w.orders, c.want)
		}
		for _, r := range w.runs {
			if !r.end.Equal(t0.Add(c.end)) {
				t.Errorf("%v: %q ended at %v, want %v", c.lab, r.order, r.end.Sub(t0), c.end)
			}
		}
	}
}

// TestReplayPrefix: a choice list replays its schedule; a choice past
// its choice point's options marks the run diverged.
func TestReplayPrefix(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3"}}
	for _, c := range []struct {
		prefix   []int
		want     string
		diverged bool
	}{
		{nil, "a1 a2 b1", false},
		{[]int{1}, "b1 a1 a2", false},
		{[]int{0, 1}, "a1 b1 a2", false},
		{[]int{5}, "b1 a1 a2", true},
	} {
		r := run(t, l, Plan{Prefix: c.prefix})
		if r.order != c.want || r.Diverged != c.diverged {
			t.Errorf("%v: %q (diverged %v), want %q (%v)", c.prefix, r.order, r.Diverged, c.want, c.diverged)
		}
	}
}
