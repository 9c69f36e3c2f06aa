package server

import (
	"fmt"
	"sync"

	"github.com/alicebob/miniredis/v2"
	mrserver "github.com/alicebob/miniredis/v2/server"

	"github.com/locklab/locklab/repl/clock"
)

// Embedded is an in-process Redis (miniredis) listening on a loopback port,
// with TTLs that run down as its clock moves: in real time by default.
type Embedded struct {
	m     *miniredis.Miniredis
	clock clock.Clock

	// mu keeps reading the clock and setting the server's time together,
	// so that commands on concurrent connections never set it back. Lock
	// order: mu, then the clock's and miniredis's own locks.
	mu sync.Mutex
}

// StartEmbedded starts an embedded Redis on 127.0.0.1 and an OS-chosen
// port, whose TTLs run down in real time.
func StartEmbedded() (*Embedded, error) { return StartEmbeddedClock(clock.Real{}) }

// StartEmbeddedClock starts an embedded Redis whose time is c's: its TTLs
// run down, and TIME and (P)EXPIREAT read, as c moves. On a virtual clock
// a key expires exactly when the clock is advanced past its TTL.
//
// ClockTTL(true) is essential: without it miniredis never expires keys on
// its own and every lesson that waits for a lock to expire silently breaks.
// With clock.Real miniredis reads time.Now itself; any other clock sets
// the server's time (SetTime) before each command.
func StartEmbeddedClock(c clock.Clock) (*Embedded, error) {
	m := miniredis.NewMiniRedis()
	e := &Embedded{m: m, clock: c}
	_, real := c.(clock.Real)
	if !real {
		m.SetTime(c.Now()) // before ClockTTL, which counts from the server's time
	}
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("starting the embedded Redis: %w", err)
	}
	m.ClockTTL(true)
	if !real {
		m.Server().SetPreHook(e.followClock)
	}
	return e, nil
}

// followClock sets the server's time to the clock's before a command
// runs; the expiry of keys follows on their next access.
//
// A script's own redis.call runs with the server locked by its EVAL (and
// the time already set for it): then the lock cannot be had, and the
// call goes on at the EVAL's time. (SetTime would wait on that lock for
// ever.) Under explore, commands reach the server one at a time, so a
// lock held means a script inside.
func (e *Embedded) followClock(*mrserver.Peer, string, ...string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.m.TryLock() {
		return false // a script's nested call: the time is the EVAL's
	}
	e.m.Unlock()
	e.m.SetTime(e.clock.Now())
	return false // the command runs as usual
}

// Addr is the host:port the embedded server listens on.
func (e *Embedded) Addr() string { return e.m.Addr() }

// Port is the port the embedded server listens on, as a string.
func (e *Embedded) Port() string { return e.m.Port() }

// Close stops the server and drops its data.
func (e *Embedded) Close() { e.m.Close() }
