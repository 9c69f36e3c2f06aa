package server_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/server"
)

// startInSlot is a start as a lab's up word makes it: claim the slot,
// start a real redis-server under the claim's context, then fill the
// slot with it, or give the slot back when the start failed.
func startInSlot(t *testing.T, s *server.Slot) error {
	ctx, err := s.Claim(context.Background())
	if err != nil {
		return err
	}
	return fillSlot(t, s, ctx)
}

// fillSlot is the rest of a start, once the slot is claimed.
func fillSlot(t *testing.T, s *server.Slot, ctx context.Context) error {
	p, err := server.StartProcess(ctx, t.TempDir())
	if err != nil {
		s.Release()
		return err
	}
	return s.Fill(p.Addr(), p.Close)
}

// startClaimed claims the slot, then starts its server on a goroutine
// of its own, whose error the channel gives.
func startClaimed(t *testing.T, s *server.Slot) <-chan error {
	ctx, err := s.Claim(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- fillSlot(t, s, ctx) }()
	return done
}

// newServers are the redis-server children of the test that were not in
// before.
func newServers(before []int) []int {
	return slices.DeleteFunc(redistest.ChildServers(), func(pid int) bool { return slices.Contains(before, pid) })
}

// TestSlotOneAtATime: five starts at once into one slot start one
// server; the other four are refused as another start is under way; a
// start after them is refused naming what the slot holds; Stop stops the
// one server, and the slot takes a start again.
func TestSlotOneAtATime(t *testing.T) {
	redistest.NeedProgram(t, "redis-server")
	before := redistest.ChildServers()
	var s server.Slot
	errs := make([]error, 5)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = startInSlot(t, &s) })
	}
	wg.Wait()
	var busy *server.Busy
	started, refused := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			started++
		case errors.As(err, &busy) && busy.Starting:
			refused++
		default:
			t.Errorf("a start: %v", err)
		}
	}
	if started != 1 || refused != 4 || len(newServers(before)) != 1 {
		t.Fatalf("%d started, %d refused, servers %v: want 1, 4 and one server", started, refused, newServers(before))
	}
	err := startInSlot(t, &s)
	if !errors.As(err, &busy) || busy.Starting || busy.Holding == "" || busy.Holding != s.Holding() {
		t.Errorf("a start after: %v, want refused naming what the slot holds (%s)", err, s.Holding())
	}
	s.Stop()
	if left := newServers(before); len(left) > 0 {
		t.Errorf("servers %v still run after Stop", left)
	}
	if err := startInSlot(t, &s); err != nil {
		t.Fatalf("a start after Stop: %v", err)
	}
	s.Stop()
	if left := newServers(before); len(left) > 0 {
		t.Errorf("servers %v still run after the second Stop", left)
	}
}

// TestSlotStopWhileStarting: Stop during a start cancels it and returns
// only once the start is over, with no server left, whether the start
// saw the cancel (and stopped its server itself), had just finished (and
// Fill stopped it), or had filled the slot (and Stop stopped it). Then
// the slot is empty.
func TestSlotStopWhileStarting(t *testing.T) {
	redistest.NeedProgram(t, "redis-server")
	before := redistest.ChildServers()
	for _, after := range []time.Duration{0, 2 * time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond} {
		var s server.Slot
		done := startClaimed(t, &s)
		time.Sleep(after)
		s.Stop()
		if left := newServers(before); len(left) > 0 {
			t.Errorf("Stop %v into a start: servers %v still run", after, left)
		}
		if err := <-done; s.Holding() != "" {
			t.Errorf("Stop %v into a start (which ended with %v): the slot holds %q", after, err, s.Holding())
		}
		s.Stop()
	}
}

// TestStopAllSlots: what a signal that ends locklab stops: every slot
// that holds a server, and a start under way.
func TestStopAllSlots(t *testing.T) {
	redistest.NeedProgram(t, "redis-server")
	before := redistest.ChildServers()
	var held, starting server.Slot
	if err := startInSlot(t, &held); err != nil {
		t.Fatal(err)
	}
	done := startClaimed(t, &starting)
	server.StopAllSlots()
	<-done
	if left := newServers(before); len(left) > 0 {
		t.Errorf("servers %v still run after StopAllSlots", left)
	}
	if held.Holding() != "" || starting.Holding() != "" {
		t.Errorf("slots hold %q and %q after StopAllSlots", held.Holding(), starting.Holding())
	}
}
