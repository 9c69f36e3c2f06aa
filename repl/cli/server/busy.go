package server

import (
	"time"

	mrserver "github.com/alicebob/miniredis/v2/server"
)

// busyAfter is how long a script runs before the embedded server answers
// other clients' commands with BUSY: redis-server's busy-reply-threshold
// (lua-time-limit), 5 s. A server takes it when it starts (a test sets
// it shorter).
var busyAfter = 5 * time.Second

// busyError is the embedded server's BUSY. redis-server's says "You can
// only call SCRIPT KILL or SHUTDOWN NOSAVE"; the embedded Redis runs a
// script where nothing can stop it (gopher-lua, inside miniredis), so it
// says what to do instead.
const busyError = "BUSY Redis is busy running a script. The embedded Redis cannot stop it " +
	"(redis-server's SCRIPT KILL would): start locklab again, or run the lab on redis-server with -p PORT"

// busy holds p's command while another client's script runs, as
// redis-server keeps it waiting, and reports false once that script has
// ended. A script that runs on for busyAfter gets the command BUSY
// instead (true: answered), as redis-server answers then; a script that
// never ends (`while true do end`) so no longer holds every other client
// for good. The peers in g.running have all passed here: none of them
// waits on another in busy.
func (g *scriptGuard) busy(p *mrserver.Peer) bool {
	for g.scripts.Load() > 0 {
		g.mu.Lock()
		_, dispatching := g.running[p] // p's own script, passing the hook again (see script)
		since, running := g.oldestBut(p)
		changed := g.changed
		g.mu.Unlock()
		if dispatching || !running {
			return false
		}
		wait := g.busyAfter - time.Since(since)
		if wait <= 0 {
			p.WriteError(busyError)
			return true
		}
		timer := time.NewTimer(wait)
		select {
		case <-changed:
		case <-timer.C:
		}
		timer.Stop()
	}
	return false
}

// oldestBut is when the longest-running script of a peer other than p
// started; g.mu is held.
func (g *scriptGuard) oldestBut(p *mrserver.Peer) (since time.Time, running bool) {
	for peer, start := range g.running {
		if peer != p && (!running || start.Before(since)) {
			since, running = start, true
		}
	}
	return since, running
}

// ScriptRunning reports whether a script is running on the server: it
// holds the server's lock, which closing the server waits for (one that
// never ends runs until locklab ends: nothing there can stop it).
func (e *Embedded) ScriptRunning() bool { return e.guard.scripts.Load() > 0 }
