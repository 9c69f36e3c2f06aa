package server_test

import (
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
)

// TestPeek: Peek reads a key as the server holds it at the clock's time,
// with no command sent: a lock's value and time left, a list's length,
// and a key whose TTL has run out on the clock as gone.
func TestPeek(t *testing.T) {
	v, e, do := virtualServer(t)
	do("SET", "lock:a", "ta", "PX", "500")
	do("RPUSH", "room:a", "alice", "bob")
	v.Advance(200 * time.Millisecond) // no command since: only Peek moves the server's time
	if got, want := e.Peek("lock:a"), (server.KeyState{Exists: true, Type: "string", Value: "ta", TTL: 300 * time.Millisecond}); got != want {
		t.Errorf("lock:a: %+v, want %+v", got, want)
	}
	if got, want := e.Peek("room:a"), (server.KeyState{Exists: true, Type: "list", Len: 2}); got != want {
		t.Errorf("room:a: %+v, want %+v", got, want)
	}
	v.Advance(300 * time.Millisecond)
	if got := e.Peek("lock:a"); got.Exists {
		t.Errorf("lock:a after its TTL: %+v, want gone", got)
	}
	if r := do("EXISTS", "lock:a"); r.Int != 0 {
		t.Errorf("EXISTS lock:a after its TTL: %v", r)
	}
}
