package sched

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// preemptions counts an order's preemptions by brute force: a step of
// another session right after a step of a session that had commands
// left (in a lab with no sleeps, it could have gone on).
func preemptions(l lab, order string) int {
	steps := strings.Fields(order)
	n := 0
	for i := 1; i < len(steps); i++ {
		prev, cur := steps[i-1], steps[i]
		done, _ := strconv.Atoi(prev[1:])
		if cur[0] != prev[0] && done < len(l[prev[:1]]) {
			n++
		}
	}
	return n
}

// TestPreemptBound: the search bounded at P preemptions runs exactly the
// orders that the brute force counts P or fewer preemptions in, each
// once, and counts each one's preemptions as the brute force does. At 0
// the sessions go one after another (n! orders); at the most any order
// has, every order.
func TestPreemptBound(t *testing.T) {
	for _, l := range []lab{
		{"a": {"SET x 1", "SET x 2"}, "b": {"SET x 3", "SET x 4"}},
		{"a": {"INCR x", "INCR x", "INCR x"}, "b": {"INCR y", "INCR x"}},
		{"a": {"SET x 1", "SET x 2"}, "b": {"SET y 1", "GET x"}, "c": {"INCR x", "INCR y"}},
	} {
		all := interleavings(l)
		most := 0
		for _, o := range all {
			most = max(most, preemptions(l, o))
		}
		for p := 0; p <= most+1; p++ {
			var want []string
			for _, o := range all {
				if preemptions(l, o) <= p {
					want = append(want, o)
				}
			}
			w := walk(t, l, Preempt{Bound: p})
			if got := sorted(w.orders); !slices.Equal(got, want) || w.cut != 0 {
				t.Errorf("%v, P=%d: %d orders (%d cut), the brute force %d:\n%q\n%q", l, p, len(got), w.cut, len(want), got, want)
			}
			for _, r := range w.runs {
				if r.Preempts != preemptions(l, r.order) {
					t.Errorf("%v, P=%d: %q counted %d preemptions, the brute force %d", l, p, r.order, r.Preempts, preemptions(l, r.order))
				}
			}
			if p == 0 && len(w.orders) != factorial(len(l)) {
				t.Errorf("%v, P=0: %d orders, want %d", l, len(w.orders), factorial(len(l)))
			}
			if p >= most && len(w.orders) != len(all) {
				t.Errorf("%v, P=%d: %d orders, want all %d", l, p, len(w.orders), len(all))
			}
		}
	}
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}
