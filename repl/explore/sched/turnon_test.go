package sched

import (
	"slices"
	"strings"
	"testing"
)

// TestTurnOn: a command to another server (a Redlock node) is a step of
// session@node; it commutes with every command to any other server, so
// the reduced search orders only the two commands to node A (2 orders of
// the raw 6); and the preemption bound follows its sender: at 0, a
// client that goes on to its next node is not preempted, and the
// sessions go one after another (2 orders).
func TestTurnOn(t *testing.T) {
	l := lab{"a": {"on A SET k 1", "on B SET k 1"}, "b": {"on A SET k 2", "SET k 3"}}
	raw := walk(t, l, DFS{})
	if len(raw.orders) != 6 {
		t.Fatalf("raw: %d orders, want 6: %q", len(raw.orders), raw.orders)
	}
	if got := raw.runs[0].Steps; !slices.Equal(got, []string{"a@A SET k 1", "a@B SET k 1", "b@A SET k 2", "b SET k 3"}) {
		t.Errorf("the first schedule's steps: %q", got)
	}
	if red := walk(t, l, Reduce{}); len(red.orders) != 2 || firsts(red.orders) != "a@A1 b@A1" {
		t.Errorf("reduced: %q, want one order with a first on A and one with b", red.orders)
	}
	if pre := walk(t, l, Preempt{Bound: 0}); len(pre.orders) != 2 {
		t.Errorf("within 0 preemptions: %q, want a's two nodes then b's, and b's then a's", pre.orders)
	}
}

// firsts is the first step of each order, sorted.
func firsts(orders []string) string {
	var out []string
	for _, o := range orders {
		out = append(out, strings.Fields(o)[0])
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
