package server

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alicebob/miniredis/v2"
	mrserver "github.com/alicebob/miniredis/v2/server"

	"github.com/locklab/locklab/repl/cli/resp"
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
	// peers are the network connections the hook has seen (see
	// followClock), under mu.
	peers map[*mrserver.Peer]bool
	guard *scriptGuard
	// timeMu keeps, on the real clock, reading the time and setting the
	// server's together (see followClock); lastTime is the last time set.
	timeMu   sync.Mutex
	lastTime time.Time
	// scripted is whether a command that can fill the script cache (EVAL,
	// SCRIPT LOAD, FUNCTION ...) ran since the last Reset, which flushes
	// the cache only then (a dial and a round trip saved per schedule).
	scripted atomic.Bool
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
// Each command sets the server's time to the clock's first (see
// followClock).
func StartEmbeddedClock(c clock.Clock) (*Embedded, error) {
	m := miniredis.NewMiniRedis()
	e := &Embedded{m: m, clock: c, peers: map[*mrserver.Peer]bool{}}
	m.SetTime(c.Now()) // before ClockTTL, which counts from the server's time
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("starting the embedded Redis: %w", err)
	}
	e.follow()
	return e, nil
}

// StartInProcess starts an embedded Redis on clock c that listens on no
// port: its connections are in-memory pipes (Dial). explore runs
// thousands of schedules, each on a fresh server; a pipe costs no socket,
// no dial and no system call per command.
func StartInProcess(c clock.Clock) (*Embedded, error) {
	m := miniredis.NewMiniRedis()
	e := &Embedded{m: m, clock: c, peers: map[*mrserver.Peer]bool{}}
	m.SetTime(c.Now())
	if _, real := c.(clock.Real); !real {
		m.Seed(1) // SRANDMEMBER, SPOP, RANDOMKEY: the same answers in the same run (a schedule replays)
	}
	conn, err := m.Dial() // starts the server without a listener
	if err != nil {
		return nil, fmt.Errorf("starting the embedded Redis: %w", err)
	}
	conn.Close()
	e.follow()
	return e, nil
}

// follow makes the server's TTLs run down as its clock moves, and
// guards its scripts (see scriptGuard).
func (e *Embedded) follow() {
	e.m.ClockTTL(true)
	e.guard = &scriptGuard{srv: e.m.Server(), unlock: e.m.Unlock, running: map[*mrserver.Peer]time.Time{}, changed: make(chan struct{}), busyAfter: busyAfter}
	e.m.Server().SetPreHook(func(p *mrserver.Peer, cmd string, args ...string) bool {
		if fillsScriptCache(cmd) {
			e.scripted.Store(true)
		}
		called := e.inScript(p) // a command a running script calls
		if !called && e.guard.busy(p) {
			return true
		}
		if e.guard.script(p, cmd, args) || refuseSubcommand(p, cmd, args) || called && e.scriptTime(p, cmd) {
			return true
		}
		if !called {
			e.followClock()
		}
		return false // the command runs as usual
	})
}

// Dial opens an in-memory connection to the server.
func (e *Embedded) Dial(context.Context) (net.Conn, error) { return e.m.Dial() }

// inScript reports whether p is the peer of a command a running script
// calls (redis.call), and otherwise remembers p. Such a command comes on
// a peer the hook has never seen whose context is already set: a
// network connection's is set by its first command, after the hook, and
// the hook sees every command of every connection.
func (e *Embedded) inScript(p *mrserver.Peer) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.peers[p] {
		if p.Ctx != nil {
			return true
		}
		e.peers[p] = true
		p.OnDisconnect(func() { e.forget(p) })
	}
	return false
}

func (e *Embedded) forget(p *mrserver.Peer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.peers, p)
}

// Addr is the host:port the embedded server listens on.
func (e *Embedded) Addr() string { return e.m.Addr() }

// Port is the port the embedded server listens on, as a string.
func (e *Embedded) Port() string { return e.m.Port() }

// Close stops the server and drops its data. While a script runs, which
// holds the server's lock (a script that never ends holds it for good),
// the server closes once the script ends, and Close returns at once:
// locklab ends, or goes on, rather than wait for it.
func (e *Embedded) Close() {
	if e.ScriptRunning() {
		go e.m.Close()
		return
	}
	e.m.Close()
}

// Reset makes an in-process server as StartInProcess(c) makes one, in
// place, for explore's next schedule: no keys in any database, no cached
// scripts, the seed and the time of a new server, on clock c. What a new
// server would cost (its command table, its goroutines) is not paid
// again. Every connection but the kept ones (connections the caller
// keeps open for the next schedule, reset on its side: session.Links)
// must have been closed: Reset waits for the server to see them go
// (their disconnection runs on goroutines of its own), and fails if they
// do not within a second; the caller then starts a new server instead.
// Only the counters INFO reports since the start
// (total_connections_received, total_commands_processed) go on.
func (e *Embedded) Reset(c clock.Clock, kept int) error {
	if err := e.awaitClients(kept); err != nil {
		return err
	}
	e.clock = c
	e.m.FlushAll()
	e.m.SetTime(c.Now())
	e.m.Seed(1)
	if !e.scripted.Load() {
		return nil // nothing filled the script cache: no connection was opened either
	}
	if err := e.flushScripts(); err != nil {
		return err
	}
	e.scripted.Store(false) // after the flush, itself a SCRIPT command
	return e.awaitClients(kept)
}

// fillsScriptCache reports whether a command (upper case, as the
// server's hook names it) can leave a script or a function behind.
func fillsScriptCache(cmd string) bool {
	switch cmd {
	case "EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO", "SCRIPT", "FUNCTION", "FCALL", "FCALL_RO":
		return true
	}
	return false
}

// RestartEmpty leaves the server as a restart without persistence
// would: every key of every database and every script gone. Its clock
// goes on, and its connections stay open (as clients that reconnected at
// once would find it). explore's restart fault calls it between steps,
// while no command runs.
func (e *Embedded) RestartEmpty() error {
	e.m.FlushAll()
	return e.flushScripts()
}

// KeyCount is how many keys the server holds, in every database, at its
// clock's time now (see Peek: no command is sent).
func (e *Embedded) KeyCount() int {
	e.catchUp()
	n := 0
	for i := range databases {
		n += len(e.m.DB(i).Keys())
	}
	return n
}

// awaitClients waits until the server has no more than n connections.
func (e *Embedded) awaitClients(n int) error {
	deadline := time.Now().Add(time.Second)
	for e.m.Server().ClientsLen() > n {
		if time.Now().After(deadline) {
			return fmt.Errorf("the embedded Redis still has %d connections, %d expected", e.m.Server().ClientsLen(), n)
		}
		runtime.Gosched()
	}
	return nil
}

// flushScripts empties the server's script cache (SCRIPT FLUSH, on a
// connection of its own: miniredis has no call for it).
func (e *Embedded) flushScripts() error {
	conn, err := e.m.Dial()
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.Write(resp.Command("SCRIPT", "FLUSH")); err != nil {
		return err
	}
	reply, _, err := resp.NewReader(conn).Read()
	if err != nil || reply.Kind != resp.Status || reply.Str != "OK" {
		return fmt.Errorf("SCRIPT FLUSH on the embedded Redis: %v %v", reply, err)
	}
	return nil
}
