package backoff

import (
	"math"
	"math/rand/v2"
	"time"
)

// Backoff is a retry's waits: the ceiling of the n-th is Base·2^(n-1),
// at most Cap.
type Backoff struct {
	Base, Cap time.Duration
}

// Ceiling is the longest the n-th wait of an acquisition can be (n counts
// its failed attempts from 1): Base doubled n-1 times, at most Cap. A
// zero or negative n is taken as 1.
func (b Backoff) Ceiling(n int) time.Duration {
	c := max(b.Base, time.Nanosecond)
	for i := 1; i < n && c < b.Cap && c <= math.MaxInt64/2; i++ {
		c *= 2
	}
	return min(c, max(b.Cap, time.Nanosecond))
}

// Delay is the n-th wait, drawn uniformly from [0, Ceiling(n)) by rng (a
// seeded one where a run must replay; nil: the process's own source).
func (b Backoff) Delay(n int, rng *rand.Rand) time.Duration {
	c := b.Ceiling(n)
	if rng == nil {
		return rand.N(c)
	}
	return time.Duration(rng.Int64N(int64(c)))
}
