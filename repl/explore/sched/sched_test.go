package sched

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/clock"
)

// The strategies' tests run the real scheduler on virtual time, with a
// fake script in place of the shell: each session is a job that sends
// its commands in order (nothing answers them: a command is a step, and
// its words say what it touches) and may sleep between them. What they
// check is what the scheduler let happen: the orders of the steps, each
// written as labels ("a1 b1 a2": session a's first command, then b's
// first, then a's second), against models of the same labs that the
// tests compute on their own, by brute force.

// lab is a fake script: each session's actions, in order, one job per
// session. An action is a Redis command ("SET x 1"), "sleep 1s", or a
// poll (see act in poll_test.go).
type lab map[string][]string

// t0 is where every fake schedule's virtual time starts.
var t0 = time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)

// result is what one fake schedule did.
type result struct {
	Ran
	err   error     // ErrEquivalent for a cut schedule
	order string    // its steps as labels
	end   time.Time // virtual time at its end
}

// run runs l once under p, as explore runs a script: the scheduler
// drives it from a goroutine of its own, and a schedule it stops (cut,
// stuck) is ended by cancelling its jobs.
func run(t *testing.T, l lab, p Plan) result {
	t.Helper()
	return runFaults(t, l, p, Faults{})
}

// runFaults is run with f's faults to choose from.
func runFaults(t *testing.T, l lab, p Plan, f Faults) result {
	t.Helper()
	v := clock.NewVirtual(t0)
	s := New(v, p)
	s.InjectFaults(f)
	srv := newFakeServer(v)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	driven := make(chan error, 1)
	go func() {
		err := s.Drive(context.Background())
		if err != nil {
			cancel()
		}
		driven <- err
	}()
	var wg sync.WaitGroup
	for _, name := range slices.Sorted(maps.Keys(l)) {
		s.JobStarting()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.JobEnded() // before Done: the script goes on only once the job is over
			s.JobBegins(ctx, name)
			for _, a := range l[name] {
				if !act(ctx, s, srv, name, a) {
					return
				}
			}
		}()
	}
	s.Waiting()
	wg.Wait()
	s.RunDone()
	err := <-driven
	if err != nil && !errors.Is(err, ErrEquivalent) {
		t.Fatalf("prefix %v: %v", p.Prefix, err)
	}
	ran := s.Ran()
	return result{Ran: ran, err: err, order: labels(ran.Steps), end: v.Now()}
}

// labels writes steps ("a SET x 1") as the models do: "a1", a session
// and how many of its steps have gone, counting this one.
func labels(steps []string) string {
	seen := map[string]int{}
	out := make([]string, len(steps))
	for i, st := range steps {
		who, _, _ := strings.Cut(st, " ")
		seen[who]++
		out[i] = fmt.Sprintf("%s%d", who, seen[who])
	}
	return strings.Join(out, " ")
}

// picks is a schedule's choice list.
func picks(cs []Choice) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.Pick
	}
	return out
}

// walked is what a search of every schedule of a strategy found.
type walked struct {
	orders []string // the orders of the schedules run to their end, in depth-first order
	cut    int      // schedules cut as equivalent
	runs   []result // every schedule, in depth-first order
}

// walk runs every schedule of st on l as explore's search does: depth
// first over the choice points, the run of a prefix giving, at each
// choice point past it, a subtree for every option but the one it took.
func walk(t *testing.T, l lab, st Strategy) walked {
	t.Helper()
	return walkFaults(t, l, st, Faults{})
}

// walkFaults is walk with f's faults to choose from.
func walkFaults(t *testing.T, l lab, st Strategy, f Faults) walked {
	t.Helper()
	var w walked
	stack := [][]int{nil}
	for len(stack) > 0 {
		prefix := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := runFaults(t, l, Plan{Prefix: prefix, Chooser: st.Chooser()}, f)
		if r.Diverged {
			t.Fatalf("prefix %v diverged", prefix)
		}
		w.runs = append(w.runs, r)
		if r.err != nil {
			w.cut++
		} else {
			w.orders = append(w.orders, r.order)
		}
		for i := len(prefix); i < len(r.Choices); i++ { // the deepest and smallest option popped first
			for k := r.Choices[i].N - 1; k >= 1; k-- {
				stack = append(stack, append(picks(r.Choices[:i]), k))
			}
		}
	}
	return w
}

// sample draws n schedules of s on l with seed, as explore's random
// search does: a first schedule to learn their length, then sample i's
// chooser from the start.
func sample(t *testing.T, l lab, s Sampler, seed uint64, n int) []result {
	t.Helper()
	first := run(t, l, Plan{Chooser: s.Chooser()})
	var out []result
	for i := range n {
		out = append(out, run(t, l, Plan{Chooser: s.Sample(seed, i, len(first.Steps))}))
	}
	return out
}

// interleavings is every order of l's commands that keeps each
// session's own order (l has no sleeps), by brute force, in the order of
// their labels.
func interleavings(l lab) []string {
	names := slices.Sorted(maps.Keys(l))
	var all []string
	var rec func(done map[string]int, order []string)
	rec = func(done map[string]int, order []string) {
		moved := false
		for _, n := range names {
			if done[n] < len(l[n]) {
				moved = true
				next := maps.Clone(done)
				next[n]++
				rec(next, append(slices.Clip(order), fmt.Sprintf("%s%d", n, next[n])))
			}
		}
		if !moved {
			all = append(all, strings.Join(order, " "))
		}
	}
	rec(map[string]int{}, nil)
	slices.Sort(all)
	return all
}

// sorted is a copy of orders, sorted.
func sorted(orders []string) []string {
	return slices.Sorted(slices.Values(orders))
}

// TestFakeLab: the harness itself. Two sessions of two commands run in
// the depth-first search's first order (sessions by name), on virtual
// time that a sleep moves and nothing else does.
func TestFakeLab(t *testing.T) {
	r := run(t, lab{"a": {"SET x 1", "SET x 2"}, "b": {"GET x", "GET y"}}, Plan{})
	if r.order != "a1 a2 b1 b2" || r.err != nil || !r.end.Equal(t0) {
		t.Errorf("got %q (%v), ended at %v", r.order, r.err, r.end)
	}
	if want := []string{"a SET x 1", "a SET x 2", "b GET x", "b GET y"}; !slices.Equal(r.Steps, want) {
		t.Errorf("steps %q, want %q", r.Steps, want)
	}
	r = run(t, lab{"a": {"sleep 2s", "SET x 1"}}, Plan{})
	if r.order != "a1" || !r.end.Equal(t0.Add(2*time.Second)) {
		t.Errorf("got %q, ended at %v", r.order, r.end)
	}
	if got := interleavings(lab{"a": {"1", "2"}, "b": {"1", "2"}}); len(got) != 6 || got[0] != "a1 a2 b1 b2" {
		t.Errorf("the brute force: %q", got)
	}
}
