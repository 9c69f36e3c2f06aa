package jobs

import (
	"context"
	"io"

	"mvdan.cc/sh/v3/interp"
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

// Track tells t when this shell's jobs start, end and are waited for;
// jobs then start without waiting for the rest of their group: the
// scheduler decides the order itself, and must never wait on the wall
// clock.
func (j *Jobs) Track(t Tracker) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tracker, j.skip = t, true
}

func (j *Jobs) tracked() Tracker {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.tracker
}

// Reserve takes a slot for the job about to start. At the limit, the
// error names it (once for the run), and from then on no job of the run
// starts another until they have all ended: the shell that tried stops,
// and a fork bomb dies out. A job that got its slot is told to the
// tracker.
func (j *Jobs) Reserve(ctx context.Context) error { return j.ReserveTelling(ctx, nil) }

// ReserveTelling is Reserve, telling the error that names the limit at
// once (see reserve).
func (j *Jobs) ReserveTelling(ctx context.Context, tell func(error)) error {
	err := j.reserve(ctx, tell)
	if t := j.tracked(); t != nil && err == nil {
		t.JobStarting()
	}
	return err
}

// Begin is a job's hook, opened as the job starts (in a handler's
// context): it writes to stderr, and its Close, as the job ends, frees
// the job's slot. With a tracker, the job waits there until the tracker
// lets it begin, and its end is told.
func (j *Jobs) Begin(ctx context.Context, stderr io.Writer) io.ReadWriteCloser {
	h := j.begin(ctx, stderr)
	t := j.tracked()
	if t == nil {
		return h
	}
	t.JobBegins(ctx, h.session(ctx))
	return &trackedHook{hook: h, t: t}
}

// session is the session of the job h starts: its table entry's (`@bob
// CMD &` is bob), else its shell's. The hook opens in the shell that
// starts the job, before the job's own variables are set: its
// LOCKLAB_SESSION is the starter's (main for every job of a script), by
// which jobs began in the order their goroutines came, not by name.
func (h *hook) session(ctx context.Context) string {
	if h.job != nil && h.job.name != "" {
		return h.job.name
	}
	return interp.HandlerCtx(ctx).Env.Get(SessionVar).String()
}

// Waiting tells the tracker that a shell is about to wait for its jobs.
func (j *Jobs) Waiting() {
	if t := j.tracked(); t != nil {
		t.Waiting()
	}
}

// trackedHook is a job's hook that tells the tracker when the job ends.
type trackedHook struct {
	*hook
	t Tracker
}

func (h *trackedHook) Close() error {
	if h.t != nil {
		h.t.JobEnded()
		h.t = nil
	}
	return h.hook.Close()
}
