package sched

import "context"

// JobStarting counts a job active before its goroutine exists, so that
// the scheduler never decides without it.
func (s *Sched) JobStarting() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active++
	s.jobs++
}

// JobBegins holds a starting job until the scheduler starts it: jobs
// start one at a time, by session name, so what they print before their
// first command comes out in the same order in every run.
func (s *Sched) JobBegins(ctx context.Context, name string) {
	_ = s.block(ctx, &s.starts, &ticket{Cmd: Cmd{Session: name}})
}

// JobEnded counts a job gone; when the last one ends, the shells waiting
// for their jobs go on.
func (s *Sched) JobEnded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	s.jobs--
	if s.jobs == 0 {
		s.active += s.waiters
		s.waiters = 0
	}
	s.cond.Broadcast()
}

// Waiting counts a shell that waits for its jobs as waiting, until they
// have all ended (a `wait PID` is taken as a plain `wait`).
func (s *Sched) Waiting() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs > 0 {
		s.active--
		s.waiters++
		s.cond.Broadcast()
	}
}

// RunDone is called as the script's Run returns.
func (s *Sched) RunDone() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	s.finished = true
	s.cond.Broadcast()
}
