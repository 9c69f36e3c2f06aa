package server

import "sync"

// Running is a set, process-wide, of things that hold servers or folders
// (the Slots that hold a cluster or a Redlock lab's nodes), so that a
// signal that ends locklab can stop them first. The zero value is ready
// to use.
type Running[T comparable] struct {
	mu  sync.Mutex
	set map[T]bool
}

// Add puts t in the set; Remove takes it out.
func (r *Running[T]) Add(t T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set == nil {
		r.set = map[T]bool{}
	}
	r.set[t] = true
}

// Remove takes t out of the set.
func (r *Running[T]) Remove(t T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.set, t)
}

// All is what the set holds now.
func (r *Running[T]) All() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := make([]T, 0, len(r.set))
	for t := range r.set {
		all = append(all, t)
	}
	return all
}
