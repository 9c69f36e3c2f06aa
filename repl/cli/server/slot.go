package server

import (
	"context"
	"errors"
	"sync"
)

// Slot is where a lab keeps one set of servers it started (its cluster,
// or its Redlock nodes): it holds at most one at a time, and this is the
// one place that decides so. A start claims the slot (Claim), and then
// fills it with what it brought up (Fill) or gives it back (Release).
// Stop stops what the slot holds; a start under way is cancelled first
// and waited for, so that nothing it started outlives the Stop. The zero
// value is an empty slot.
//
// A slot that holds something, or is being filled, is on a process-wide
// list, so that a signal that ends locklab stops it too (StopAllSlots).
type Slot struct {
	mu       sync.Mutex
	starting *start // the start under way, or nil
	holding  string // what the slot holds, in a few words ("" when empty)
	stop     func() // stops what it holds; nil when it is empty
}

// start is a start under way: its cancel, and done, closed once it
// filled the slot or gave it back.
type start struct {
	cancel  context.CancelFunc
	done    chan struct{}
	stopped bool // Stop came while it ran: what it brought up is stopped at once
}

// Busy is a start the slot refused: it holds Holding, or (Starting)
// another start is under way.
type Busy struct {
	Holding  string
	Starting bool
}

func (b *Busy) Error() string {
	if b.Starting {
		return "another start is under way"
	}
	return "already running: " + b.Holding
}

// ErrStopped is a start that Stop ended before it filled the slot: what
// it brought up is stopped.
var ErrStopped = errors.New("stopped while it started")

// slots are the slots of the process that hold something or are being
// filled.
var slots Running[*Slot]

// Claim takes the slot for a start, or refuses with *Busy when it holds
// something or another start is under way. The start runs under the
// context it returns, which Stop cancels; it must end with Fill or
// Release.
func (s *Slot) Claim(ctx context.Context) (context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.starting != nil || s.stop != nil {
		return nil, &Busy{Holding: s.holding, Starting: s.starting != nil}
	}
	ctx, cancel := context.WithCancel(ctx)
	s.starting = &start{cancel: cancel, done: make(chan struct{})}
	slots.Add(s)
	return ctx, nil
}

// Fill ends a start that succeeded: the slot holds what it brought up,
// described as holding, until Stop calls stop. When a Stop came
// meanwhile, stop is called at once and Fill returns ErrStopped.
func (s *Slot) Fill(holding string, stop func()) error {
	s.mu.Lock()
	st := s.starting
	s.starting = nil
	if st.stopped {
		s.mu.Unlock()
		stop()
		s.ended(st)
		return ErrStopped
	}
	s.holding, s.stop = holding, stop
	s.mu.Unlock()
	st.cancel()
	close(st.done)
	return nil
}

// Release ends a start that failed, having stopped what it had brought
// up itself: the slot is empty again.
func (s *Slot) Release() {
	s.mu.Lock()
	st := s.starting
	s.starting = nil
	s.mu.Unlock()
	s.ended(st)
}

// ended takes an empty slot off the process's list, then lets a Stop
// waiting for st go on.
func (s *Slot) ended(st *start) {
	st.cancel()
	s.mu.Lock()
	if s.starting == nil && s.stop == nil {
		slots.Remove(s)
	}
	s.mu.Unlock()
	close(st.done)
}

// Stop stops what the slot holds, after cancelling a start under way and
// waiting for it to end, and empties the slot. It returns once every
// server is stopped, also when another Stop runs at the same time. It is
// safe to call on an empty slot.
func (s *Slot) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.starting; st != nil {
		st.stopped = true
		st.cancel()
		s.mu.Unlock()
		<-st.done // the start stopped what it brought up
		s.mu.Lock()
	}
	if s.stop != nil {
		s.stop() // under mu: a Claim meanwhile waits until the servers are gone
		s.holding, s.stop = "", nil
	}
	if s.starting == nil {
		slots.Remove(s)
	}
}

// Holding is what the slot holds, or "".
func (s *Slot) Holding() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holding
}

// StopAllSlots stops what every slot of the process holds or is
// starting: what a signal that ends locklab does first.
func StopAllSlots() {
	var wg sync.WaitGroup
	for _, s := range slots.All() {
		wg.Go(s.Stop)
	}
	wg.Wait()
}
