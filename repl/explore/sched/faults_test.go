package sched

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// pauses offers one fault at every turn: time running on by d.
func pauses(max int, d time.Duration) Faults {
	return Faults{Max: max, Offer: func([]*Cmd) []Fault { return []Fault{{Line: "time +" + d.String(), Advance: d}} }}
}

// withPauses is every order of l's commands (no sleeps) with at most max
// faults, each before one of the commands (a fault is offered only while
// a command waits), by brute force: the model the searches are checked
// against. A fault is the label "⚡1", "⚡2" ... as labels writes it.
func withPauses(l lab, max int) []string {
	var all []string
	names := slices.Sorted(maps.Keys(l))
	var rec func(done map[string]int, faults int, order []string)
	rec = func(done map[string]int, faults int, order []string) {
		moved := false
		for _, n := range names {
			if done[n] < len(l[n]) {
				moved = true
				next := maps.Clone(done)
				next[n]++
				rec(next, faults, append(slices.Clip(order), fmt.Sprintf("%s%d", n, next[n])))
			}
		}
		if !moved {
			all = append(all, strings.Join(order, " "))
			return
		}
		if faults < max {
			rec(done, faults+1, append(slices.Clip(order), fmt.Sprintf("⚡%d", faults+1)))
		}
	}
	rec(map[string]int{}, 0, nil)
	slices.Sort(all)
	return all
}

// TestFaultsEveryPlacement: the raw search with at most K faults runs
// every order of the commands with every placement of at most K faults
// between them, once each (the brute force's), and each fault moves
// virtual time on by its Advance.
func TestFaultsEveryPlacement(t *testing.T) {
	for _, c := range []struct {
		lab  lab
		max  int
		want int
	}{
		{lab{"a": {"SET x 1", "SET x 2"}}, 1, 3},                       // no fault, before a1, before a2
		{lab{"a": {"SET x 1", "SET x 2"}}, 2, 6},                       // and two: ⚡⚡a1a2, ⚡a1⚡a2, a1⚡⚡a2
		{lab{"a": {"SET x 1"}, "b": {"SET x 2"}}, 1, 2 + 2*2},          // 2 orders, each with a fault before either step or none
		{lab{"a": {"SET x 1", "GET x"}, "b": {"SET x 2"}}, 1, 3 + 3*3}, // 3 orders, 3 placements each
	} {
		w := walkFaults(t, c.lab, DFS{}, pauses(c.max, time.Second))
		all := withPauses(c.lab, c.max)
		if len(all) != c.want || !slices.Equal(sorted(w.orders), all) || w.cut != 0 {
			t.Errorf("%v, %d faults: %d schedules (%d cut), the brute force %d (want %d):\n%q\n%q",
				c.lab, c.max, len(w.orders), w.cut, len(all), c.want, sorted(w.orders), all)
		}
		for _, r := range w.runs {
			if want := t0.Add(time.Duration(r.Faults) * time.Second); !r.end.Equal(want) || r.Faults != strings.Count(r.order, "⚡") {
				t.Errorf("%q: %d faults, ended at %v, want %v", r.order, r.Faults, r.end.Sub(t0), want.Sub(t0))
			}
		}
	}
}

// TestFaultsReduced: the reduced search with faults reaches every class
// of orders the raw one does. A fault commutes with no step, so two
// schedules are equivalent only when they place the same faults between
// the same sets of commuting commands: the class of an order is its
// stretches between faults, each sorted (the commands here all commute:
// each session writes a key of its own).
func TestFaultsReduced(t *testing.T) {
	l := lab{"a": {"SET x 1", "SET x 2"}, "b": {"SET y 1", "SET y 2"}}
	raw := walkFaults(t, l, DFS{}, pauses(1, time.Second))
	reduced := walkFaults(t, l, Reduce{}, pauses(1, time.Second))
	rawClasses, reducedClasses := classes(raw.orders), classes(reduced.orders)
	if !slices.Equal(rawClasses, reducedClasses) {
		t.Errorf("classes differ:\nraw     %q\nreduced %q", rawClasses, reducedClasses)
	}
	if len(reduced.orders) >= len(raw.orders) || len(reduced.orders) != len(reducedClasses) {
		t.Errorf("reduced ran %d schedules for %d classes; raw ran %d", len(reduced.orders), len(reducedClasses), len(raw.orders))
	}
}

// classes are orders up to swapping commands between faults, sorted and
// once each.
func classes(orders []string) []string {
	var out []string
	for _, o := range orders {
		var parts []string
		for _, stretch := range strings.Split(o, "⚡") {
			words := strings.Fields(stretch)
			slices.Sort(words)
			parts = append(parts, strings.Join(words, " "))
		}
		if c := strings.Join(parts, " | "); !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// TestFaultsTold: Happened hears each fault as it happens, between the
// steps. A fault is a choice where a command waits: one that comes after
// a sleep comes after the sleeper's time has come (1s, then 3s more).
func TestFaultsTold(t *testing.T) {
	var told []string
	f := pauses(1, 3*time.Second)
	f.Happened = func(x Fault, _ time.Time) { told = append(told, x.Line) }
	r := runFaults(t, lab{"a": {"SET x 1", "sleep 1s", "SET x 2"}}, Plan{Prefix: []int{0, 1}}, f)
	if r.order != "a1 ⚡1 a2" || !slices.Equal(told, []string{"time +3s"}) || !r.end.Equal(t0.Add(4*time.Second)) {
		t.Errorf("got %q, told %q, ended at %v", r.order, told, r.end.Sub(t0))
	}
}

// TestFaultsLostReply: a lost-reply fault lets its command go as a step
// of its own, named as the option was; its session hears once that the
// reply is lost (ReplyLost), and no other session does.
func TestFaultsLostReply(t *testing.T) {
	f := Faults{Max: 1, Offer: func(can []*Cmd) []Fault {
		var out []Fault
		for _, c := range can {
			out = append(out, Fault{Line: "lost reply: " + c.Step(), Lose: c})
		}
		return out
	}}
	v := clock.NewVirtual(t0)
	s := New(v, Plan{Prefix: []int{2}}) // a1, b1, then the lost variants of a1 and b1: a1's
	s.InjectFaults(f)
	go s.Drive(context.Background())
	var heard sync.Map
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		s.JobStarting()
		wg.Go(func() {
			defer s.JobEnded()
			s.JobBegins(context.Background(), name)
			release, err := s.Turn(context.Background(), name, []string{"SET", name, "1"})
			if err != nil {
				t.Error(err)
				return
			}
			heard.Store(name, [2]bool{s.ReplyLost(name), s.ReplyLost(name)})
			release(session.Event{Args: []string{"SET", name, "1"}})
		})
	}
	s.Waiting()
	wg.Wait()
	s.RunDone()
	ran := s.Ran()
	a, _ := heard.Load("a")
	b, _ := heard.Load("b")
	if a != [2]bool{true, false} || b != [2]bool{false, false} || ran.Faults != 1 {
		t.Errorf("a heard %v, b %v, %d faults", a, b, ran.Faults)
	}
	if ran.Steps[0] != "⚡ lost reply: a SET a 1" || !ran.Schedule[0].Lost || ran.Schedule[0].String() != "a SET a 1 ⚡ reply lost" {
		t.Errorf("steps %q, schedule %+v", ran.Steps, ran.Schedule)
	}
}
