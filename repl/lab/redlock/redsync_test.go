package redlock_test

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"

	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// TestRedsyncAsksNoDNS: an acquisition and a release through redsync
// send no DNS query. The go-redis clients are named node-A .. node-E,
// names no resolver knows; go-redis v9.23 resolved each one as it built
// the client (to guess a cloud endpoint's type), up to 2 s a lookup on a
// busy resolver, five per attempt: 10 workers × 2 iterations through
// redsync took 34 s, through locklab's steps 1.2 s. The resolver is
// swapped for one that counts its DNS connections and refuses them.
func TestRedsyncAsksNoDNS(t *testing.T) {
	var queries atomic.Int32
	r := net.DefaultResolver
	preferGo, dial := r.PreferGo, r.Dial
	r.PreferGo = true
	r.Dial = func(context.Context, string, string) (net.Conn, error) {
		queries.Add(1)
		return nil, errors.New("no DNS in this test")
	}
	t.Cleanup(func() { r.PreferGo, r.Dial = preferGo, dial })
	l := up(t, 5)
	l.Use(redlock.Redsync)
	if a := acquire(t, l, "alice", "a1"); !a.Granted {
		t.Fatalf("alice not granted: %v", a.Set)
	}
	if _, _, err := l.Release(ctx, clock.Real{}, "alice", "lock:x", "a1", redlock.Defaults); err != nil {
		t.Fatal(err)
	}
	if n := queries.Load(); n != 0 {
		t.Errorf("%d DNS queries for one acquisition and one release through redsync, want none", n)
	}
}
