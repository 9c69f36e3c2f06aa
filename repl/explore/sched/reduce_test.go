package sched

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// command is the fake command a label names ("b2": session b's second;
// sleeps are not steps).
func command(l lab, label string) string {
	n, _ := strconv.Atoi(label[1:])
	for _, a := range l[label[:1]] {
		if !strings.HasPrefix(a, "sleep ") {
			if n--; n == 0 {
				return a
			}
		}
	}
	panic("no step " + label)
}

// dependent is the model's own reading of two fake commands of
// different sessions, written here and not taken from package commute:
// they touch one key, and one of them writes it (GET and EXISTS only
// read; PING touches nothing).
func dependent(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) < 2 || len(fb) < 2 || fa[1] != fb[1] {
		return false
	}
	reads := func(f []string) bool { return f[0] == "GET" || f[0] == "EXISTS" }
	return !reads(fa) || !reads(fb)
}

// trace is the Mazurkiewicz trace of an order of l's steps: which of
// each two dependent steps of different sessions came first. Two orders
// are equal up to swapping adjacent independent steps exactly when
// their traces are equal (each session's own order is the same in all).
func trace(l lab, order string) string {
	steps := strings.Fields(order)
	at := map[string]int{}
	for i, s := range steps {
		at[s] = i
	}
	names := slices.Sorted(maps.Keys(at))
	var b strings.Builder
	for i, p := range names {
		for _, q := range names[i+1:] {
			if p[0] != q[0] && dependent(command(l, p), command(l, q)) {
				if at[p] < at[q] {
					fmt.Fprintf(&b, "%s<%s ", p, q)
				} else {
					fmt.Fprintf(&b, "%s<%s ", q, p)
				}
			}
		}
	}
	return b.String()
}

// traces is the set of traces of orders.
func traces(l lab, orders []string) []string {
	set := map[string]bool{}
	for _, o := range orders {
		set[trace(l, o)] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// TestReduceOneOrderPerTrace: on labs whose sessions' commands commute
// or not, the reduced search runs to their end a subset of the raw
// orders (the brute force's) that holds exactly one order of each
// Mazurkiewicz trace: every class of equivalent orders is covered, none
// twice; the schedules it cuts are the rest of the tree it did not need.
func TestReduceOneOrderPerTrace(t *testing.T) {
	for _, c := range []struct {
		name   string
		lab    lab
		traces int
	}{
		{"independent", lab{"a": {"SET a 1", "SET a 2"}, "b": {"SET b 1", "SET b 2"}}, 1},
		{"one key", lab{"a": {"INCR x", "INCR x"}, "b": {"INCR x", "INCR x"}}, 6},
		{"crossed", lab{"a": {"SET x 1", "GET y"}, "b": {"SET y 1", "GET x"}}, 3},
		{"bidders", lab{"a": {"GET n", "SET n a"}, "b": {"GET n", "SET n b"}}, 4},
		{"ping", lab{"a": {"PING", "SET x 1"}, "b": {"SET x 2", "PING"}}, 2},
		{"three", lab{"a": {"INCR x", "GET z"}, "b": {"INCR y", "INCR x"}, "c": {"GET y", "SET z 1"}}, 8},
		{"readers", lab{"a": {"GET x", "EXISTS y"}, "b": {"GET y", "EXISTS x"}, "c": {"GET x", "SET w 1"}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			all := interleavings(c.lab)
			want := traces(c.lab, all)
			if len(want) != c.traces {
				t.Fatalf("the model: %d traces, want %d", len(want), c.traces)
			}
			w := walk(t, c.lab, Reduce{})
			got := sorted(w.orders)
			for _, o := range got {
				if _, ok := slices.BinarySearch(all, o); !ok {
					t.Errorf("%q is no order of the lab", o)
				}
			}
			if !slices.Equal(traces(c.lab, got), want) || len(got) != len(want) || len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Errorf("%d orders (%d cut) of %d raw: %q\ncover the traces %q\nwant one each of %q", len(got), w.cut, len(all), got, traces(c.lab, got), want)
			}
			t.Logf("%d raw orders, %d traces: %d run, %d cut", len(all), len(want), len(got), w.cut)
		})
	}
}

// TestReduceVirtualTime: with sleeps, the reduced search's orders are
// some of the raw search's (the scheduler's, on virtual time), and cover
// each of their traces.
func TestReduceVirtualTime(t *testing.T) {
	for _, l := range []lab{
		{"a": {"SET x 1", "sleep 1s", "GET y"}, "b": {"GET x", "SET y 1"}, "c": {"sleep 1s", "SET z 1", "GET x"}},
		{"a": {"sleep 1s", "INCR x"}, "b": {"sleep 1s", "INCR y"}, "c": {"sleep 1s", "INCR x"}},
	} {
		raw := sorted(walk(t, l, DFS{}).orders)
		got := sorted(walk(t, l, Reduce{}).orders)
		for _, o := range got {
			if _, ok := slices.BinarySearch(raw, o); !ok {
				t.Errorf("%v: %q is no raw order", l, o)
			}
		}
		if !slices.Equal(traces(l, got), traces(l, raw)) || len(got) >= len(raw) {
			t.Errorf("%v: reduced %q\nraw %q", l, got, raw)
		}
	}
}

// TestReduceCut: a choice list that puts a command after one it
// commutes with, when the search ran it first elsewhere, is cut
// (ErrEquivalent) as soon as every next command sleeps.
func TestReduceCut(t *testing.T) {
	l := lab{"a": {"SET a 1"}, "b": {"SET b 1"}}
	if r := run(t, l, Plan{Chooser: Reduce{}.Chooser()}); r.err != nil || r.order != "a1 b1" {
		t.Errorf("first: %q, %v", r.order, r.err)
	}
	if r := run(t, l, Plan{Prefix: []int{1}, Chooser: Reduce{}.Chooser()}); r.err != ErrEquivalent || r.order != "b1" {
		t.Errorf("b first: %q, %v; want cut after b1", r.order, r.err)
	}
	if r := run(t, l, Plan{Prefix: []int{1}, Chooser: DFS{}.Chooser()}); r.err != nil || r.order != "b1 a1" {
		t.Errorf("raw, b first: %q, %v", r.order, r.err)
	}
}
