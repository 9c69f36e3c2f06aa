//go:build race

package explore

// raceOn: the race detector slows every step several times over, so
// wall-clock limits are not checked.
const raceOn = true
