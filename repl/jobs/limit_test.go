package jobs

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/words"
)

// TestLimitFreesSlots: a job's slot is freed when it ends (its hook
// closes), or, when it never started, when its context was cancelled
// (Ctrl-C); a run that met the limit starts no more jobs until its own
// have ended, and says so once.
func TestLimitFreesSlots(t *testing.T) {
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
	other := context.Background()
	for deadline := time.Now().Add(time.Second); j.Reserve(other) != nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slots of a cancelled run's jobs were not freed")
		}
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
