package server

import (
	"strconv"
	"time"

	mrserver "github.com/alicebob/miniredis/v2/server"

	"github.com/locklab/locklab/repl/clock"
)

// followClock sets the server's time to the clock's before a command
// runs, on every clock: the time then stands still until the next
// command, within an EXEC or a script too, as on redis-server 7, and the
// keys' TTLs, TIME and (P)EXPIREAT read it. (miniredis on the real clock
// read the wall clock at every access: a key could expire between a
// transaction's commands, and the probe's read just after a command found
// a lock of 10 ms gone.) On the real clock the time set only goes forward
// (timeMu), whatever order concurrent connections' hooks run in: TIME
// orders the probe's events. Another clock moves between steps, or jumps
// (a lab's clock jump, either way), and is set as it says.
//
// A command a Lua script calls (redis.call) passes through the hook too,
// while the script holds the server's lock: setting the time then would
// wait for ever, so such a command (inScript) runs on the script's time.
//
// e.mu is not held while the time is set: a script's command holds the
// server's lock and then asks for e.mu, so a hook that held e.mu while it
// waited for the server's lock (SetTime) would wait for ever.
func (e *Embedded) followClock() {
	if _, real := e.clock.(clock.Real); !real {
		e.m.SetTime(e.clock.Now())
		return
	}
	e.timeMu.Lock()
	defer e.timeMu.Unlock()
	e.m.SetTime(e.realNow())
}

// realNow is the wall clock's time, never before the last it gave;
// e.timeMu is held.
func (e *Embedded) realNow() time.Time {
	if now := time.Now(); now.After(e.lastTime) {
		e.lastTime = now
	}
	return e.lastTime
}

// scriptTime answers the TIME a script calls with the wall clock's time,
// as redis-server's TIME does while the script's keys keep the time the
// script began at: a script that waits on TIME ends. It reports whether
// it answered (on the real clock only: another clock's TIME is the
// clock's).
func (e *Embedded) scriptTime(p *mrserver.Peer, cmd string) bool {
	if _, real := e.clock.(clock.Real); !real || cmd != "TIME" {
		return false
	}
	now := time.Now() // not realNow: a hook holding timeMu may wait for the lock this script holds
	p.WriteLen(2)
	p.WriteBulk(strconv.FormatInt(now.Unix(), 10))
	p.WriteBulk(strconv.Itoa(now.Nanosecond() / 1000))
	return true
}
