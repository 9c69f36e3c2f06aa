package sched

import "slices"

// Reduce is the default search: depth first, with Godefroid's sleep
// sets (package commute says which commands commute). The commands
// picked before another at a choice point are explored first, in
// schedules of their own, so after it each of them sleeps while it
// commutes with every step since; a schedule whose every next command
// sleeps is cut (ErrEquivalent). Each schedule run to its end stands for
// one class of orders equal up to swapping commuting steps (a Mazurkiewicz
// trace), and the search reaches the same end states as the raw one.
type Reduce struct{}

func (Reduce) Mode() string     { return "reduced" }
func (Reduce) Flags() string    { return "" }
func (Reduce) Chooser() Chooser { return &sleepSet{} }

// sleepSet is one schedule's sleep set: the waiting commands another
// schedule runs first.
type sleepSet struct {
	first
	asleep []*Cmd
}

// Enabled leaves out the sleeping commands.
func (z *sleepSet) Enabled(_ Point, can []*Cmd) []*Cmd {
	if len(z.asleep) == 0 {
		return can
	}
	var awake []*Cmd
	for _, c := range can {
		if !slices.Contains(z.asleep, c) {
			awake = append(awake, c)
		}
	}
	return awake
}

// Went puts to sleep the options picked before the one that went (the
// search runs them first elsewhere), and keeps asleep those that commute
// with it; one it conflicts with wakes (is dropped from the set).
func (z *sleepSet) Went(_ Point, opts []*Cmd, pick int) {
	c := opts[pick]
	var next []*Cmd
	for _, u := range slices.Concat(z.asleep, opts[:pick]) {
		if u != c && u.Access.Commutes(c.Access) && !slices.Contains(next, u) {
			next = append(next, u)
		}
	}
	z.asleep = next
}

// Moved wakes every sleeper: a moved clock may change what a sleeping
// command does.
func (z *sleepSet) Moved() { z.asleep = nil }
