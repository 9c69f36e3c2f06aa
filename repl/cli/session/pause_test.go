package session

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// TestPause: a paused session's commands (plain, pipelined, one-shot)
// wait until the pause ends and are sent then; another session's go out
// at once; a command still waiting when its ctx ends is not sent.
//
// It runs in a synctest bubble, on the embedded server's in-memory
// connections: the 50 ms sleep returns only once every other goroutine
// waits (alice's three commands at the pause, whatever the machine's
// load), and the bubble's clock then reads 50 ms later, so a command
// sent before the pause ended shows it.
func TestPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		set := NewSet(inProcess(t))
		t.Cleanup(set.Close)
		ctx := context.Background()
		resume := make(chan struct{})
		set.Pause("alice", until(resume))
		sent := make(chan Event, 3)
		go func() { e, _ := set.Get("alice").Do(ctx, []string{"RPUSH", "l", "alice"}); sent <- e }()
		go func() {
			es, _ := set.Get("alice").DoBatch(ctx, [][]string{{"RPUSH", "l", "batch"}})
			sent <- es[0]
		}()
		go func() { e, _ := set.OneShot(ctx, set.Target, "alice", []string{"RPUSH", "l", "oneshot"}); sent <- e }()
		if e, err := set.Get("bob").Do(ctx, []string{"RPUSH", "l", "bob"}); err != nil || e.Reply.Int != 1 {
			t.Fatalf("bob, not paused: %v %v, want 1 (alice's commands waiting)", e.Reply, err)
		}
		time.Sleep(50 * time.Millisecond) // in the bubble: until all wait, then 50 ms on
		if len(sent) != 0 {
			t.Fatalf("%d of alice's commands went out during the pause", len(sent))
		}
		ended := time.Now()
		close(resume)
		for range 3 {
			if e := <-sent; e.Err != nil || e.Start.Before(ended) {
				t.Errorf("alice's %v: err %v, sent %v before the pause ended", e.Args, e.Err, ended.Sub(e.Start))
			}
		}
		set.Pause("alice", until(make(chan struct{}))) // never resumes
		short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		if _, err := set.Get("alice").Do(short, []string{"RPUSH", "l", "late"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("alice's command when ctx ends during the pause: %v, want the deadline", err)
		}
		if e, _ := set.Get("bob").Do(ctx, []string{"LLEN", "l"}); e.Reply.Int != 4 {
			t.Errorf("LLEN l = %d, want 4 (the late command not sent)", e.Reply.Int)
		}
	})
}

// until is a pause that ends when resume is closed.
func until(resume <-chan struct{}) func(context.Context) error {
	return func(ctx context.Context) error {
		select {
		case <-resume:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// inProcess is the target of an embedded server with in-memory
// connections, started for the test (inside a bubble: in it).
func inProcess(t *testing.T) Target {
	return Target{Network: "tcp", Addr: "127.0.0.1:0", Embedded: true, InProcess: redistest.InProcess(t)}
}
