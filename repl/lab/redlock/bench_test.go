package redlock_test

import (
	"context"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// BenchmarkUp times `redlock up` on five embedded nodes (target: under
// 50 ms); Down is not timed. bench/redlock.sh runs it.
func BenchmarkUp(b *testing.B) { benchUp(b, redlock.Embedded) }

// BenchmarkUpReal times `redlock up --real`: five redis-server processes
// started and ready (target: under 2 s).
func BenchmarkUpReal(b *testing.B) { benchUp(b, redlock.Real) }

func benchUp(b *testing.B, kind redlock.Kind) {
	b.Setenv("TMPDIR", b.TempDir())
	l := &redlock.Lab{}
	b.Cleanup(l.Down)
	for i := 0; i < b.N; i++ {
		err := l.Up(context.Background(), 5, clock.Real{}, kind)
		redistest.SkipIfNoRedis(b, err)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		l.Down()
		b.StartTimer()
	}
}
