package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// connect opens a connection to e, closed when the test ends, and returns
// a function that sends one command and fails the test on a broken
// connection.
func connect(t *testing.T, e *server.Embedded) func(args ...string) resp.Reply {
	t.Helper()
	t.Cleanup(e.Close)
	c := session.NewConn(session.Target{Network: "tcp", Addr: e.Addr()}, "")
	t.Cleanup(c.Close)
	return func(args ...string) resp.Reply {
		t.Helper()
		r, err := c.Do(context.Background(), args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return r
	}
}

// virtualServer is an embedded server on a virtual clock set to the
// tests' start, and a connection to it (both closed with the test).
func virtualServer(t *testing.T) (*clock.Virtual, *server.Embedded, func(args ...string) resp.Reply) {
	t.Helper()
	v := clock.NewVirtual(time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC))
	e, err := server.StartEmbeddedClock(v)
	if err != nil {
		t.Fatal(err)
	}
	return v, e, connect(t, e)
}

// TestVirtualClockTTL: on a virtual clock a key's TTL runs down only as
// the clock is advanced, to the millisecond, and TIME reads the clock.
func TestVirtualClockTTL(t *testing.T) {
	start := time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)
	v := clock.NewVirtual(start)
	e, err := server.StartEmbeddedClock(v)
	if err != nil {
		t.Fatal(err)
	}
	do := connect(t, e)
	if r := do("SET", "k", "v", "PX", "500"); r.Str != "OK" {
		t.Fatalf("SET k v PX 500: %v", r)
	}
	v.Advance(499 * time.Millisecond)
	if r := do("PTTL", "k"); r.Int != 1 {
		t.Errorf("PTTL k after 499ms: %v, want 1", r)
	}
	if r := do("GET", "k"); r.Str != "v" {
		t.Errorf("GET k after 499ms: %v, want v", r)
	}
	v.Advance(time.Millisecond)
	if r := do("PTTL", "k"); r.Int != -2 {
		t.Errorf("PTTL k after 500ms: %v, want -2 (gone)", r)
	}
	if r := do("TIME"); len(r.Elems) != 2 || r.Elems[0].Str != "1714572000" {
		t.Errorf("TIME: %v, want the virtual clock's 1714572000", r)
	}
}

// TestRealClockTTL: StartEmbedded's TTLs run down in real time, with no
// one advancing anything.
func TestRealClockTTL(t *testing.T) {
	e, err := server.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	do := connect(t, e)
	do("SET", "k", "v", "PX", "20")
	for deadline := time.Now().Add(5 * time.Second); do("EXISTS", "k").Int == 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("k PX 20 still exists after 5s")
		}
	}
}

// TestVirtualClockEval: a script on a server with a clock of its own
// runs (its redis.call commands do not wait for the time to be set) and
// sees the clock's expiry.
func TestVirtualClockEval(t *testing.T) {
	v, _, do := virtualServer(t)
	del := `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`
	do("SET", "k", "t", "PX", "500")
	if r := do("EVAL", del, "1", "k", "t"); r.Int != 1 {
		t.Errorf("EVAL compare-and-delete: %v, want 1", r)
	}
	do("SET", "k", "t", "PX", "500")
	v.Advance(500 * time.Millisecond)
	if r := do("EVAL", del, "1", "k", "t"); r.Int != 0 {
		t.Errorf("EVAL after the TTL: %v, want 0 (expired)", r)
	}
}

// TestClockEvalWhileConnecting: scripts on one connection while fresh
// connections send their first command, on a clock that is not the host's
// (a Redlock node's): every command is answered (a script's command, which
// holds the server's lock, and a new connection's hook once waited for
// each other for ever).
func TestClockEvalWhileConnecting(t *testing.T) {
	e, err := server.StartEmbeddedClock(clock.NewOffset(clock.Real{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	del := `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			var err error
			for i := 0; i < 100 && err == nil; i++ {
				c := session.NewConn(session.Target{Network: "tcp", Addr: e.Addr()}, "")
				_, err = c.Do(ctx, []string{"EVAL", del, "1", "k", "t"})
				c.Close()
			}
			if err != nil {
				err = fmt.Errorf("worker %d: %w", w, err)
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestResetFlushesScripts: Reset empties the script cache when a script
// ran since the last one (SCRIPT EXISTS answers 0 after), and opens no
// connection of its own when none did (INFO's connection count stays).
func TestResetFlushesScripts(t *testing.T) {
	v, e, do := virtualServer(t)
	sha := do("SCRIPT", "LOAD", "return 1").Str
	if err := e.Reset(v, 1); err != nil {
		t.Fatal(err)
	}
	if got := do("SCRIPT", "EXISTS", sha); len(got.Elems) != 1 || got.Elems[0].Int != 0 {
		t.Errorf("after a Reset the script is still cached: %v", got)
	}
	if err := e.Reset(v, 1); err != nil { // SCRIPT EXISTS was a script command too
		t.Fatal(err)
	}
	do("SET", "k", "v")
	before := do("INFO", "stats").Str
	if err := e.Reset(v, 1); err != nil {
		t.Fatal(err)
	}
	after := do("INFO", "stats").Str
	if connections(t, before) != connections(t, after) || do("EXISTS", "k").Int != 0 {
		t.Errorf("a Reset with no script opened a connection, or kept k:\n%s\n%s", before, after)
	}
}

// connections is INFO's total_connections_received.
func connections(t *testing.T, info string) int {
	t.Helper()
	var n int
	for _, line := range strings.Split(info, "\n") {
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "total_connections_received:%d", &n); err == nil {
			return n
		}
	}
	t.Fatalf("no total_connections_received in %q", info)
	return 0
}
