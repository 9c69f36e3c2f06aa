package backoff

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestCeiling: the ceiling doubles from Base at each failed attempt and
// stops at Cap, whatever the attempt's number.
func TestCeiling(t *testing.T) {
	b := Backoff{Base: time.Millisecond, Cap: 64 * time.Millisecond}
	want := map[int]time.Duration{-3: time.Millisecond, 0: time.Millisecond, 1: time.Millisecond, 2: 2 * time.Millisecond,
		3: 4 * time.Millisecond, 7: 64 * time.Millisecond, 8: 64 * time.Millisecond, 1000: 64 * time.Millisecond, math.MaxInt: 64 * time.Millisecond}
	for n, w := range want {
		if got := b.Ceiling(n); got != w {
			t.Errorf("Ceiling(%d) = %v, want %v", n, got, w)
		}
	}
	odd := Backoff{Base: 3 * time.Millisecond, Cap: 10 * time.Millisecond}
	for n, w := range map[int]time.Duration{1: 3 * time.Millisecond, 2: 6 * time.Millisecond, 3: 10 * time.Millisecond, 4: 10 * time.Millisecond} {
		if got := odd.Ceiling(n); got != w {
			t.Errorf("a cap that is no power of two: Ceiling(%d) = %v, want %v", n, got, w)
		}
	}
	huge := Backoff{Base: time.Second, Cap: math.MaxInt64}
	if got := huge.Ceiling(200); got <= 0 {
		t.Errorf("a cap near the largest duration: Ceiling(200) = %v, want a positive duration (no overflow)", got)
	}
	if got := (Backoff{Base: time.Second, Cap: time.Millisecond}).Ceiling(1); got != time.Millisecond {
		t.Errorf("a cap below the base: Ceiling(1) = %v, want the cap", got)
	}
	if got := (Backoff{}).Ceiling(5); got <= 0 {
		t.Errorf("the zero Backoff: Ceiling = %v, want a positive ceiling (rand.N needs one)", got)
	}
}

// TestDelayBounded: every delay is within [0, Ceiling(n)), for every
// attempt, capped.
func TestDelayBounded(t *testing.T) {
	b := Backoff{Base: time.Millisecond, Cap: 64 * time.Millisecond}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 20; n++ {
		for range 1000 {
			for _, d := range []time.Duration{b.Delay(n, rng), b.Delay(n, nil)} {
				if d < 0 || d >= b.Ceiling(n) {
					t.Fatalf("Delay(%d) = %v, outside [0, %v)", n, d, b.Ceiling(n))
				}
			}
		}
	}
}

// TestDelayJittered: the delays of one attempt spread over the whole
// range below the ceiling (full jitter), not around one value: in 4,000
// draws each quarter of the range gets a share near a quarter.
func TestDelayJittered(t *testing.T) {
	b := Backoff{Base: time.Millisecond, Cap: 64 * time.Millisecond}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 4, 30} {
		c := b.Ceiling(n)
		var quarters [4]int
		distinct := map[time.Duration]bool{}
		for range 4000 {
			d := b.Delay(n, rng)
			quarters[d*4/c]++
			distinct[d] = true
		}
		for q, k := range quarters {
			if k < 800 || k > 1200 {
				t.Errorf("attempt %d: quarter %d of [0, %v) got %d of 4000 delays, want about 1000", n, q, c, k)
			}
		}
		if len(distinct) < 3900 {
			t.Errorf("attempt %d: %d distinct delays in 4000: not jittered", n, len(distinct))
		}
	}
}

// TestDelaySeeded: a seeded source gives the same delays again, so a run
// that must replay can.
func TestDelaySeeded(t *testing.T) {
	b := Backoff{Base: time.Millisecond, Cap: 50 * time.Millisecond}
	one, two := rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
	for n := 1; n <= 10; n++ {
		if x, y := b.Delay(n, one), b.Delay(n, two); x != y {
			t.Fatalf("attempt %d: %v then %v from the same seed", n, x, y)
		}
	}
}
