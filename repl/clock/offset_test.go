package clock_test

import (
	"testing"
	"time"

	"github.com/locklab/locklab/repl/clock"
)

// TestOffsetJump: a jump moves what Now reads by exactly its amount, both
// ways, and the base clock does not move.
func TestOffsetJump(t *testing.T) {
	start := time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)
	v := clock.NewVirtual(start)
	o := clock.NewOffset(v)
	if !o.Now().Equal(start) {
		t.Fatalf("Now before a jump: %v, want %v", o.Now(), start)
	}
	o.Jump(3 * time.Second)
	o.Jump(-500 * time.Millisecond)
	if got := o.Now().Sub(start); got != 2500*time.Millisecond {
		t.Errorf("after +3s and -500ms: %v ahead, want 2.5s", got)
	}
	if !v.Now().Equal(start) {
		t.Errorf("the base moved: %v", v.Now())
	}
	v.Advance(time.Second)
	if got := o.Now().Sub(start); got != 3500*time.Millisecond {
		t.Errorf("after the base advanced 1s: %v ahead, want 3.5s", got)
	}
}
