package app

import (
	"runtime"

	"github.com/locklab/locklab/repl/cli/session"
)

// cpusFor is how many CPUs locklab's goroutines get (GOMAXPROCS) against
// target, given the runtime's default n and whether the user set
// GOMAXPROCS: against a redis-server on this machine, one fewer (at least
// one). Its one thread and locklab's workers share the CPUs: with every
// CPU running workers the server gets less than a whole one, and every
// command waits on it (on 2 CPUs, load ran 10-15% more cycles/s on 1 in
// alternated runs). Not for the embedded server, which is locklab's own
// goroutines, nor a remote one, nor when the user chose.
func cpusFor(target session.Target, n int, userSet bool) int {
	if target.Embedded || !target.OnThisMachine() || userSet || n < 2 {
		return n
	}
	return n - 1
}

// shareCPUs sets GOMAXPROCS for target, once, for the whole program.
func shareCPUs(target session.Target, userSet bool) {
	n := runtime.GOMAXPROCS(0)
	if want := cpusFor(target, n, userSet); want != n {
		runtime.GOMAXPROCS(want)
	}
}
