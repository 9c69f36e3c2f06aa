package session

import (
	"context"
	"time"
)

// Pause stops session name, as a stop-the-world pause (a long GC) stops
// a whole process: until wait returns, no command of the session goes
// out, its watchdog's, pipelines and one-shot calls included. Each
// command calls wait, on its own goroutine (a sleep until the pause's end
// on the lab's clock: explore's scheduler sees it as the session's). A
// command waiting when ctx ends is not sent. A second pause replaces the
// first.
func (s *Set) Pause(name string, wait func(ctx context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pauses == nil {
		s.pauses = map[string]func(context.Context) error{}
	}
	s.pauses[name] = wait
}

// WaitPaused waits until session name is not paused, or ctx ends. Every
// session calls it before it acts (a command, a redlock word): from then
// on the set knows the name (Names).
func (s *Set) WaitPaused(ctx context.Context, name string) error {
	s.mu.Lock()
	wait := s.pauses[name]
	if s.acted == nil {
		s.acted = map[string]bool{}
	}
	s.acted[name] = true
	s.mu.Unlock()
	if wait == nil {
		return nil
	}
	return wait(ctx)
}

// notSent is the event of a command that waited for a pause and was not
// sent: ctx ended first.
func notSent(name string, args []string, err error) Event {
	now := time.Now()
	return Event{Session: name, Args: args, Err: err, Start: now, End: now}
}
