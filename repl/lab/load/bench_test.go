package load

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
)

// benchAddr is the real redis-server to measure against: $LOCKLAB_BENCH_ADDR
// (bench/load.sh sets it), or one started for the benchmark.
func benchAddr(b *testing.B) string {
	if addr := os.Getenv("LOCKLAB_BENCH_ADDR"); addr != "" {
		return addr
	}
	return redistest.Real(b)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkCycles measures lock cycles per second of load --mode fix
// --work 0 with $LOCKLAB_BENCH_WORKERS workers (50) on $LOCKLAB_BENCH_LOCKS
// locks (1), retrying as $LOCKLAB_BENCH_RETRY says (the default policy):
// one op is one cycle. With $LOCKLAB_BENCH_JSON set, the last run's stats
// go to that file.
func BenchmarkCycles(b *testing.B) {
	addr := benchAddr(b)
	workers := envInt("LOCKLAB_BENCH_WORKERS", 50)
	locks := envInt("LOCKLAB_BENCH_LOCKS", 1)
	iterations := max(1, (b.N+workers-1)/workers)
	cfg := Config{Workers: workers, Iterations: iterations, Locks: locks, Mode: ModeFix, Work: 0, TTL: 2 * time.Second,
		Key: "lock:bench:cycles", Retry: os.Getenv("LOCKLAB_BENCH_RETRY")}
	b.ResetTimer()
	s, err := Run(context.Background(), dialer(addr), cfg, nil)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if s.Outcome() != OK || s.Overlaps != 0 {
		b.Fatalf("work 0 with a 2s TTL must be clean:\n%s", s.Table())
	}
	secs := s.Elapsed.Seconds()
	b.ReportMetric(float64(s.Sections)/secs, "cycles/s")
	b.ReportMetric(float64(s.Commands)/secs, "cmds/s")
	b.ReportMetric(float64(s.FailedAttempts)/float64(s.Sections), "failed/cycle")
	if path := os.Getenv("LOCKLAB_BENCH_JSON"); path != "" { // for bench/load.sh
		if err := os.WriteFile(path, []byte(s.JSON()+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad1000Workers runs 1,000 workers (fix mode, no work, few
// iterations) against a real redis-server and reports the process's peak
// RSS (VmHWM), which must stay under 200 MB.
func BenchmarkLoad1000Workers(b *testing.B) {
	addr := benchAddr(b)
	workers := envInt("LOCKLAB_BENCH_WORKERS", 1000)
	for b.Loop() {
		cfg := Config{Workers: workers, Iterations: 2, Mode: ModeFix, Work: 0, TTL: 2 * time.Second, Key: "lock:bench:memory"}
		s, err := Run(context.Background(), dialer(addr), cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		if s.Sections != int64(workers*2) {
			b.Fatalf("%d sections, want %d", s.Sections, workers*2)
		}
		b.ReportMetric(s.CyclesPerSecond(), "cycles/s")
	}
	hwm := peakRSS(b)
	b.ReportMetric(float64(hwm)/1024, "peak-RSS-MB")
	if hwm > 200*1024 {
		b.Errorf("peak RSS %d kB, want under 200 MB", hwm)
	}
}

// peakRSS is VmHWM from /proc/self/status, in kB.
func peakRSS(tb testing.TB) int64 {
	if runtime.GOOS != "linux" {
		tb.Skip("VmHWM needs Linux's /proc")
	}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb
		}
	}
	tb.Fatal("no VmHWM in /proc/self/status")
	return 0
}

func dialer(addr string) func(int) Conn {
	t := session.Target{Network: "tcp", Addr: addr}
	return func(w int) Conn { return session.NewConn(t, fmt.Sprintf("w%d", w)) }
}
