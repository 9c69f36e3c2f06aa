package shell

import (
	"context"
	"io"

	"github.com/locklab/locklab/repl/check"
)

// Tracker is told what a scheduler cannot see from the gate and the
// clock alone: when background jobs start and end, and when a shell
// waits for its jobs. explore counts the run's goroutines with it, to
// know when every one of them is waiting (at the gate, on the clock, or
// for its jobs). A normal run has none.
type Tracker interface {
	// JobStarting is called in the shell that starts a job, just before
	// the job's goroutine starts.
	JobStarting()
	// JobBegins is called in the job's goroutine as it starts; it may
	// hold the job there until the scheduler lets it run.
	JobBegins(ctx context.Context, session string)
	// JobEnded is called as a job's statement ends.
	JobEnded()
	// Waiting is called as a shell is about to wait for its jobs.
	Waiting()
}

// trackedHook is a job's hook (see jobs.Begin) that tells the tracker
// when the job ends.
type trackedHook struct {
	io.ReadWriteCloser
	t Tracker
}

func (h *trackedHook) Close() error {
	if h.t != nil {
		h.t.JobEnded()
		h.t = nil
	}
	return h.ReadWriteCloser.Close()
}

// Findings is the verdict on the run so far, as the verdict line shows
// it (explore groups schedules by it).
func (s *Shell) Findings(ctx context.Context) []check.Finding { return s.findings(ctx) }
