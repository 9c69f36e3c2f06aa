package sched

// DFS is the raw search (--no-reduce): every order of the sessions'
// commands, depth first; at each choice point every waiting command is
// an option, and past the prefix the first goes.
type DFS struct{}

func (DFS) Mode() string     { return "raw" }
func (DFS) Flags() string    { return "--no-reduce " }
func (DFS) Chooser() Chooser { return first{} }
