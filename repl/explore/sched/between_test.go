package sched

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// TestBetween: the function Between gives runs once after each step, when
// the step's session has moved on, seeing the steps so far; its error
// stops the schedule there.
func TestBetween(t *testing.T) {
	stop := errors.New("stop")
	for _, c := range []struct {
		stopAt int
		want   []int // the steps seen at each call
	}{{0, []int{1, 2, 3}}, {2, []int{1, 2}}} {
		s := New(clock.NewVirtual(t0), Plan{})
		var seen []int
		var moved []bool // the session had moved on: its local work after the step was done
		local := 0
		s.Between(func(steps []string) error {
			seen = append(seen, len(steps))
			moved = append(moved, local == len(steps))
			if len(steps) == c.stopAt {
				return stop
			}
			return nil
		})
		ctx, cancel := context.WithCancel(context.Background())
		driven := make(chan error, 1)
		go func() {
			err := s.Drive(ctx)
			cancel() // a stopped schedule's session waits no more
			driven <- err
		}()
		for _, cmd := range []string{"SET x 1", "SET x 2", "SET x 3"} {
			release, err := s.Turn(ctx, "a", strings.Fields(cmd))
			if err != nil {
				break
			}
			release(session.Event{Session: "a", Args: strings.Fields(cmd), Reply: resp.Reply{Kind: resp.Status, Str: "OK"}})
			local++ // after the reply, before the next command: as the annotator reads an event
		}
		s.RunDone()
		if err := <-driven; c.stopAt > 0 && !errors.Is(err, stop) || c.stopAt == 0 && err != nil {
			t.Errorf("stop at %d: Drive returned %v", c.stopAt, err)
		}
		if !slices.Equal(seen, c.want) || slices.Contains(moved, false) {
			t.Errorf("stop at %d: called after steps %v (session moved on: %v), want %v", c.stopAt, seen, moved, c.want)
		}
	}
}
