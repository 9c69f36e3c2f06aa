package explore

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/clock"
)

// BenchmarkScheduleCost takes one two-bidder schedule apart, to say what
// bounds the search's speed (run it with -cpu 1 for the cost on one CPU):
// a fresh embedded Redis, a schedule that runs nothing (`true`: server,
// shell, sessions and verdict), the bidders' shell logic with echo in
// place of Redis (interpreter, jobs, gate), and the whole schedule.
func BenchmarkScheduleCost(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as a search runs
	b.Run("fresh-embedded-redis", func(b *testing.B) {
		for b.Loop() {
			e, err := server.StartInProcess(clock.NewVirtual(start))
			if err != nil {
				b.Fatal(err)
			}
			e.Close()
		}
	})
	for _, c := range []struct{ name, text string }{
		{"script-true", "true\n"},
		{"bidders-echo-for-redis", `bid() { n=$(echo 0); if [ "$n" -lt 1 ]; then echo "$1"; fi; }` + "\nbid alice & bid bob & wait\n"},
		{"bidders", `DEL room
bid() { n=$(LLEN room); if [ "$n" -lt 1 ]; then RPUSH room "$1"; fi; }
bid alice & bid bob & wait
expect LLEN room == 1
`},
	} {
		sc := Script{Name: c.name + ".lab", Text: []byte(c.text), Dir: "../.."}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := runOnce(context.Background(), sc, Options{Raw: true}.plan(nil)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed()/time.Microsecond)/float64(b.N), "µs/schedule")
		})
	}
}
