package shell

import (
	"os"
	"runtime"
	"testing"

	"github.com/locklab/locklab/repl/session"
)

// TestLeaveServerACore: a load against a redis-server on this machine runs
// on one CPU fewer, and the setting comes back after; the embedded server
// and a remote one keep every CPU.
func TestLeaveServerACore(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	if n < 2 || os.Getenv("GOMAXPROCS") != "" {
		t.Skipf("%d CPUs, GOMAXPROCS=%q: nothing to leave", n, os.Getenv("GOMAXPROCS"))
	}
	before := n
	for target, want := range map[session.Target]int{
		{Network: "tcp", Addr: "127.0.0.1:6379"}:                 n - 1,
		{Network: "unix", Addr: "/tmp/redis.sock"}:               n - 1,
		{Network: "tcp", Addr: "127.0.0.1:6379", Embedded: true}: before,
		{Network: "tcp", Addr: "10.1.2.3:6379"}:                  before,
	} {
		restore := leaveServerACore(target)
		if got := runtime.GOMAXPROCS(0); got != want {
			t.Errorf("%+v: GOMAXPROCS %d during the load, want %d", target, got, want)
		}
		restore()
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Errorf("%+v: GOMAXPROCS %d after the load, want %d back", target, got, before)
		}
	}
}

// TestLeaveServerACoreOverlapping: two loads at once (background jobs),
// ending in either order, give the setting back as it was.
func TestLeaveServerACoreOverlapping(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	if n < 2 || os.Getenv("GOMAXPROCS") != "" {
		t.Skipf("%d CPUs, GOMAXPROCS=%q: nothing to leave", n, os.Getenv("GOMAXPROCS"))
	}
	before := n
	local := session.Target{Network: "tcp", Addr: "127.0.0.1:6379"}
	first := leaveServerACore(local)
	second := leaveServerACore(local)
	first()
	if got := runtime.GOMAXPROCS(0); got != n-1 {
		t.Errorf("GOMAXPROCS %d while the second load runs, want %d", got, n-1)
	}
	second()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS %d after both, want %d back", got, before)
	}
}
