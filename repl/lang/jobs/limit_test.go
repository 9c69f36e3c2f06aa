package jobs

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locklab/locklab/repl/lang/words"
)

// TestLimitFreesSlots: a job's slot is freed when it ends (its hook
// closes), or, when it never started, when its context was cancelled
// (Ctrl-C); a run that met the limit starts no more jobs until its own
// have ended, and says so once.
//
// In a synctest bubble: once the cancel's effects are over (every
// goroutine of the bubble waits or has ended), the slots must be free.
func TestLimitFreesSlots(t *testing.T) { synctest.Test(t, limitFreesSlots) }

func limitFreesSlots(t *testing.T) {
	j := New(2)
	ctx, cancel := context.WithCancel(context.Background())
	for range 2 {
		if err := j.Reserve(ctx); err != nil {
			t.Fatal(err)
		}
	}
	first, again := j.Reserve(ctx), j.Reserve(ctx)
	if e, _ := words.AsError(first); e == nil || !strings.Contains(e.Msg, "too many background jobs (2 running)") {
		t.Errorf("at the limit: %v, want an error naming it", first)
	}
	if e, _ := words.AsError(again); e == nil || e.Msg != "" {
		t.Errorf("at the limit again: %v, want an error already said", again)
	}
	cancel() // neither job started: their slots are freed
	synctest.Wait()
	other := context.Background()
	if err := j.Reserve(other); err != nil {
		t.Fatalf("the slots of a cancelled run's jobs were not freed: %v", err)
	}
	hook := j.Begin(other, io.Discard) // the job starts ...
	if err := j.Reserve(other); err != nil {
		t.Fatalf("a second job: %v", err)
	}
	if err := j.Reserve(other); err == nil {
		t.Fatal("a third job past the limit of 2 started")
	}
	hook.Close() // ... and ends; the run's other job is still to start
	if err := j.Reserve(other); err == nil {
		t.Error("a run that met the limit started a job while its own still ran")
	}
}

// TestGroupWaitsForEveryJob: a group's wait lasts while any job started
// under it holds a slot, however deep its group (one inside the other):
// from the job's reservation, before it starts, to its end; a job that
// never starts (its context cancelled) leaves the group too.
func TestGroupWaitsForEveryJob(t *testing.T) {
	j := New(0)
	outer := j.Group(context.Background())
	inner, cancel := context.WithCancel(j.Group(outer))
	if err := j.Reserve(inner); err != nil {
		t.Fatal(err)
	}
	waited := func(d time.Duration) bool {
		ctx, stop := context.WithTimeout(outer, d)
		defer stop()
		return j.WaitGroup(ctx) == nil
	}
	if waited(20 * time.Millisecond) {
		t.Fatal("the wait ended while a job was about to start")
	}
	hook := j.Begin(inner, io.Discard)
	if err := j.Reserve(inner); err != nil { // a second job, which never starts
		t.Fatal(err)
	}
	hook.Close()
	if waited(20 * time.Millisecond) {
		t.Fatal("the wait ended while a job was still to start")
	}
	cancel()
	if !waited(5 * time.Second) {
		t.Error("the wait went on after every job ended or was cancelled")
	}
}
