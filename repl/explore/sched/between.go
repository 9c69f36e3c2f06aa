package sched

// Between makes f run after each step: once every goroutine of the run
// waits on the scheduler again (the step's reply has been read and
// annotated, the session has moved on to its next command or sleep) and
// before anything else happens. steps are the steps so far, the last one
// just run (f must not keep the slice). An error from f stops the
// schedule with it. explore's oracle (--oracle) is such an f; without
// one, nothing runs between steps.
func (s *Sched) Between(f func(steps []string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.between.f = f
}

// between is the function run between steps, and how many steps it has
// seen.
type between struct {
	f    func(steps []string) error
	seen int
}

// afterStep runs the between function once after each step. Called with
// s.mu held, when no goroutine of the run is active.
func (s *Sched) afterStep() {
	b := &s.between
	if b.f == nil || s.err != nil || len(s.steps) == b.seen {
		return
	}
	b.seen = len(s.steps)
	if err := b.f(s.steps); err != nil {
		s.err = err
	}
}
