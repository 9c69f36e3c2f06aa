package session

import (
	"context"
	"time"
)

// Pause stops session name, as a stop-the-world pause (a long GC) stops
// a whole process: until resume is closed, no command of the session
// goes out, its watchdog's, pipelines and one-shot calls included. A
// command waiting when ctx ends is not sent. A second pause replaces
// the first.
func (s *Set) Pause(name string, resume <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pauses == nil {
		s.pauses = map[string]<-chan struct{}{}
	}
	s.pauses[name] = resume
}

// WaitPaused waits until session name is not paused, or ctx ends. Every
// session calls it before it acts (a command, a redlock word): from then
// on the set knows the name (Names).
func (s *Set) WaitPaused(ctx context.Context, name string) error {
	s.mu.Lock()
	resume := s.pauses[name]
	if s.acted == nil {
		s.acted = map[string]bool{}
	}
	s.acted[name] = true
	s.mu.Unlock()
	if resume == nil {
		return nil
	}
	select {
	case <-resume:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// notSent is the event of a command that waited for a pause and was not
// sent: ctx ended first.
func notSent(name string, args []string, err error) Event {
	now := time.Now()
	return Event{Session: name, Args: args, Err: err, Start: now, End: now}
}
