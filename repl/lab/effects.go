package lab

import (
	"slices"

	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lab/redlockload"
	"github.com/locklab/locklab/repl/lang/words"
)

// redlockNodes is what `redlock up` makes of the Redlock nodes, as a
// script's precheck follows its calls (words.Effect): "real" (redis-server
// processes), "embedded" or "none".
const redlockNodes = "Redlock nodes"

// realClock is why a clock jump cannot run on real nodes, and what to do.
const realClock = "the Redlock nodes are real redis-server processes, whose clocks the lab cannot jump (each expires keys by the host's clock); clock jumps need embedded nodes: run it without --real"

// redlockEffects: `redlock up` makes the nodes real (--real) or embedded,
// `redlock down` leaves none.
func redlockEffects(args []string, known []bool) []words.Effect {
	switch {
	case len(args) == 0 || !known[0]:
		return []words.Effect{{Key: redlockNodes, Set: words.Unsure}}
	case args[0] == "down":
		return []words.Effect{{Key: redlockNodes, Set: "none"}}
	case args[0] != "up":
		return nil
	case slices.Contains(known, false):
		return []words.Effect{{Key: redlockNodes, Set: words.Unsure}}
	}
	p, err := redlock.Spec.Parse(args)
	switch {
	case err != nil:
		return nil // its Check says what is wrong
	case p.Bool("real"):
		return []words.Effect{{Key: redlockNodes, Set: "real"}}
	}
	return []words.Effect{{Key: redlockNodes, Set: "embedded"}}
}

// clockEffects: a clock jump cannot run on real nodes.
func clockEffects(args []string, known []bool) []words.Effect {
	return []words.Effect{{Key: redlockNodes, Refuse: "real", Why: "clock jump: " + realClock}}
}

// loadEffects: `load --redlock N --clock-jump EVERY` jumps clocks, which
// it cannot on real nodes.
func loadEffects(args []string, known []bool) []words.Effect {
	if slices.Contains(known, false) {
		return nil
	}
	p, err := loadSpec.Parse(args)
	if err != nil || p.Spec != redlockload.Spec || !p.Given("clock-jump") {
		return nil
	}
	return []words.Effect{{Key: redlockNodes, Refuse: "real", Why: "load --clock-jump: " + realClock}}
}
