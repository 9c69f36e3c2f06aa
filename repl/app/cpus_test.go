package app

import (
	"testing"

	"github.com/locklab/locklab/repl/cli/session"
)

// TestCPUsFor: against a redis-server on this machine locklab leaves it a
// CPU; the embedded server, a remote one, a single CPU and a GOMAXPROCS
// the user set keep every CPU.
func TestCPUsFor(t *testing.T) {
	local := session.Target{Network: "tcp", Addr: "127.0.0.1:6379"}
	for _, tt := range []struct {
		name    string
		target  session.Target
		n       int
		userSet bool
		want    int
	}{
		{"local TCP server", local, 2, false, 1},
		{"local Unix socket", session.Target{Network: "unix", Addr: "/tmp/redis.sock"}, 4, false, 3},
		{"localhost by name", session.Target{Network: "tcp", Addr: "localhost:6379"}, 8, false, 7},
		{"embedded", session.Target{Network: "tcp", Addr: "127.0.0.1:6379", Embedded: true}, 2, false, 2},
		{"remote", session.Target{Network: "tcp", Addr: "10.1.2.3:6379"}, 2, false, 2},
		{"one CPU", local, 1, false, 1},
		{"user set GOMAXPROCS", local, 2, true, 2},
	} {
		if got := cpusFor(tt.target, tt.n, tt.userSet); got != tt.want {
			t.Errorf("%s: %d CPUs of %d, want %d", tt.name, got, tt.n, tt.want)
		}
	}
}
