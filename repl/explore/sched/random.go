package sched

import (
	"fmt"
	"math/rand/v2"
)

// RandomWalk is the search by random walks (--walk N): N samples, each
// taking at every choice point one of the commands that could go, each
// as likely as the others; a sample replays as a raw schedule. Unlike
// PCT it favours no session for long: an order that switches sessions
// often is likelier, one that needs a session to run far ahead of the
// others rarer.
type RandomWalk struct{ N int }

func (w RandomWalk) Mode() string   { return "random walk, raw" }
func (w RandomWalk) Flags() string  { return fmt.Sprintf("--walk %d ", w.N) }
func (RandomWalk) Chooser() Chooser { return first{} }
func (w RandomWalk) Samples() int   { return w.N }

// Sample is sample i's walk, from the search's seed.
func (RandomWalk) Sample(seed uint64, i, _ int) Chooser {
	return &coin{rng: rand.New(rand.NewPCG(seed, uint64(i)))}
}

// coin picks one of the options, each as likely.
type coin struct {
	first
	rng *rand.Rand
}

func (c *coin) Pick(_ Point, opts []*Cmd) int { return c.rng.IntN(len(opts)) }
