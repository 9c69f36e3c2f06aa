package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// worker is one goroutine, on its own connection, doing its cycles.
type worker struct {
	*runner
	id     int
	name   string // w3
	keys   keys   // its lock's
	lock   int    // its lock's index in runner.locks
	conn   Conn
	runCtx context.Context // sleeps stop when it is done
	cmdCtx context.Context // commands: outlives runCtx by grace
	cancel context.CancelFunc
	timer  *time.Timer

	token     string
	heldFor   time.Duration // notify: how long the holder's lock had left at the last failed attempt (PTTL; <= 0 none)
	fence     string        // fenced mode: this section's fencing token
	nextWatch time.Time     // extend mode: when the watchdog runs next
	commands  int64         // commands sent, added to the run's count at the end
}

func newWorker(r *runner, id int, conn Conn, runCtx, cmdCtx context.Context) *worker {
	// A context of its own, so that each command's cancellation hook does
	// not contend with the other workers' on a shared one.
	cmdCtx, cancel := context.WithCancel(cmdCtx)
	t := time.NewTimer(time.Hour)
	t.Stop()
	lock := (id - 1) % len(r.locks)
	return &worker{runner: r, id: id, name: "w" + strconv.Itoa(id), keys: r.locks[lock], lock: lock,
		conn: conn, runCtx: runCtx, cmdCtx: cmdCtx, cancel: cancel, timer: t}
}

func (w *worker) close() {
	w.c.commands.Add(w.commands)
	w.conn.Close()
	w.cancel()
	w.timer.Stop()
}

// connect opens the worker's connection (a PING, not counted among the
// run's commands), so that the run's time is its cycles'.
func (w *worker) connect() error {
	if _, err := w.conn.Do(w.cmdCtx, []string{"PING"}); err != nil {
		return fmt.Errorf("%s: connecting: %w", w.name, err)
	}
	return nil
}

// started waits for the start, and reports whether the run goes on.
func (w *worker) started(start <-chan struct{}) bool {
	select {
	case <-start:
		return true
	case <-w.runCtx.Done():
		return false
	}
}

func (w *worker) run() error {
	for i := 1; i <= w.cfg.Iterations; i++ {
		if w.runCtx.Err() != nil {
			return nil
		}
		if err := w.cycle(i); err != nil {
			if errors.Is(err, errStopped) || w.runCtx.Err() != nil {
				return nil
			}
			return err
		}
		w.c.done.Add(1)
	}
	return nil
}

// cycle is one acquire, enter, read, work, write, leave, release. The
// commands that follow one another with no decision between them go in
// one round trip (a pipeline): the server runs them in the same order as
// one by one, so nothing the lesson shows changes but the time it takes.
// Every mode does the same read-modify-write of the resource: GET inside
// the section, then the write of what it read plus one.
func (w *worker) cycle(i int) error {
	w.token = w.name + "-i" + strconv.Itoa(i)
	if err := w.acquire(); err != nil {
		return err
	}
	acquired := time.Now()
	w.c.acquisitions.Add(1)
	value, err := w.enter()
	if err != nil {
		return err
	}
	if err := w.work(i, acquired); err != nil {
		return err
	}
	if w.cfg.Mode == ModeFenced {
		return w.fencedLeave(value)
	}
	return w.leave(value)
}

// enter counts the worker in (an INCR of KEY:inside that answers more
// than 1 is an overlap) and reads the resource, in one round trip.
func (w *worker) enter() (value int64, err error) {
	k := &w.keys
	r, err := w.send(cmd("INCR", k.inside), cmd("GET", k.resource))
	if err != nil {
		return 0, err
	}
	w.c.sections.Add(1)
	if r[0].Int > 1 {
		w.c.overlaps.Add(1)
	}
	if value, err = intValue(r[1]); err != nil {
		return 0, fmt.Errorf("%s: GET %s: %w", w.name, k.resource, err)
	}
	return value, nil
}

// leave writes value+1 to the resource (SET ... GET answers the value it
// replaced), counts the worker out and releases the lock, in one round
// trip.
func (w *worker) leave(value int64) error {
	k := &w.keys
	write := cmd("SET", k.resource, strconv.FormatInt(value+1, 10), "GET")
	r, err := w.send(write, cmd("DECR", k.inside), w.releaseCall())
	if len(r) > 0 {
		// answered, even if the release after it was not
		if err := w.countWrite(r[0], value); err != nil {
			return err
		}
	} else if unanswered(err) {
		w.c.unconfirmedWrites.Add(1)
	}
	if err != nil {
		return err
	}
	w.countRelease(r[2])
	return nil
}

// fencedLeave is leave for fenced mode: the write carries the fencing
// token, and the resource may refuse it; then the worker counts itself
// out and releases. The write is a script that must answer before
// anything after it runs (see send), so it is a round trip of its own.
func (w *worker) fencedLeave(value int64) error {
	k := &w.keys
	r, err := w.send(runScript(scripts.FencedSet, k.resource, k.fenceLast, w.fence, strconv.FormatInt(value+1, 10)))
	if unanswered(err) {
		w.c.unconfirmedWrites.Add(1)
	}
	if err != nil {
		return err
	}
	if r[0].Kind == resp.Int && r[0].Int < 0 {
		w.c.fencedRejected.Add(1)
	} else if err := w.countWrite(r[0], value); err != nil {
		return err
	}
	if r, err = w.send(cmd("DECR", k.inside), w.releaseCall()); err != nil {
		return err
	}
	w.countRelease(r[1])
	return nil
}

// countWrite counts an accepted write from its answer, the value it
// replaced: when that is not the value its holder read, the write wiped
// out that many updates it never saw (lost updates).
func (w *worker) countWrite(replaced resp.Reply, read int64) error {
	prev, err := intValue(replaced)
	if err != nil {
		return fmt.Errorf("%s: the write of %s: %w", w.name, w.keys.resource, err)
	}
	w.c.writes.Add(1)
	w.c.lost.Add(prev - read)
	return nil
}

// acquire takes the lock with SET NX PX (fenced mode: with its fencing
// token, in one script), trying again when the run's retry policy says
// (see waitToRetry). A stop between attempts ends it with errStopped.
func (w *worker) acquire() error {
	for failed := 0; ; failed++ {
		r, err := w.send(w.attempt(failed)...)
		if err != nil {
			return err
		}
		switch got := r[len(r)-1]; {
		case got.Kind == resp.Status && got.Str == "OK":
			return nil
		case got.Kind == resp.Int && w.cfg.Mode == ModeFenced:
			w.fence = strconv.FormatInt(got.Int, 10)
			return nil
		case got.Kind != resp.Nil:
			return fmt.Errorf("%s: SET %s NX: unexpected reply %v", w.name, w.keys.lock, got)
		}
		w.c.failed.Add(1)
		if len(r) == 3 { // notify's marked attempt: the PTTL the holder had left
			w.heldFor = time.Duration(r[1].Int) * time.Millisecond
		}
		if !w.waitToRetry(failed + 1) {
			return errStopped
		}
	}
}

// attempt is an acquisition's round trip after failed attempts: the
// mode's acquisition (acquireCall), and with --retry notify, once one
// failed, the waiting mark set first, in the same round trip, so that
// the holder's release announces itself (the mark is set before the lock
// is found held, so no release falls between them unannounced), and the
// lock's PTTL read, so that a waiter whose holder lets it expire
// unannounced tries again when it does (see awaitRelease).
func (w *worker) attempt(failed int) []call {
	if w.releases == nil || failed == 0 {
		return []call{w.acquireCall()}
	}
	return []call{cmd("SET", w.keys.waiting, "1"), cmd("PTTL", w.keys.lock), w.acquireCall()}
}

// acquireCall is the mode's acquisition: SET NX PX, or fenced mode's
// script that also takes the token.
func (w *worker) acquireCall() call {
	if w.cfg.Mode == ModeFenced {
		return runScript(scripts.FencedAcquire, w.keys.lock, w.keys.fence, w.token, w.ttlMS)
	}
	return cmd("SET", w.keys.lock, w.token, "NX", "PX", w.ttlMS)
}

// releaseCall is the mode's release: a plain DEL in break mode (a script
// that answers what it deleted), Lua compare-and-delete in the others.
// With --retry notify the script also takes the waiting mark and, when a
// waiter had set it, PUBLISHes the release on the lock's channel.
func (w *worker) releaseCall() call {
	keys := []string{w.keys.lock}
	var channel []string
	if w.releases != nil {
		keys, channel = append(keys, w.keys.waiting), []string{channelFor(w.keys.lock)}
	}
	if w.cfg.Mode == ModeBreak {
		return runScriptOn(scripts.BlindRelease, keys, channel...)
	}
	return runScriptOn(scripts.ReleaseTold, keys, append([]string{w.token}, channel...)...)
}

// countRelease reads the release's answer.
func (w *worker) countRelease(r resp.Reply) {
	if w.cfg.Mode == ModeBreak {
		switch {
		case r.Kind == resp.Nil:
			w.c.expired.Add(1) // it expired, and nobody took it
		case r.Str != w.token:
			w.c.expired.Add(1) // it expired, and we deleted the next holder's
			w.c.wrongOwner.Add(1)
		}
		return
	}
	switch r.Int {
	case 0:
		w.c.expired.Add(1)
		w.c.skipped.Add(1) // another worker's lock: left alone
	case -1:
		w.c.expired.Add(1)
	}
}

// work holds the lock for Work ± Jitter. In extend mode the watchdog runs
// here, in the worker's own goroutine, so a pause freezes it too. On the
// pausing iterations the worker freezes for Pause halfway through. A stop
// cuts the work short (the cycle still writes, leaves and releases).
func (w *worker) work(i int, acquired time.Time) error {
	d := w.cfg.Work
	if j := w.cfg.Jitter; j > 0 {
		d += rand.N(2*j+1) - j
		d = max(d, 0)
	}
	w.nextWatch = acquired.Add(w.cfg.TTL / 3)
	if w.cfg.PauseEvery == 0 || w.cfg.Pause == 0 || i%w.cfg.PauseEvery != 0 {
		return w.busy(d)
	}
	if err := w.busy(d / 2); err != nil {
		return err
	}
	w.sleep(w.cfg.Pause) // the world stops: no watchdog, nothing
	return w.busy(d - d/2)
}

// busy works for d, running the watchdog when it is due.
func (w *worker) busy(d time.Duration) error {
	extending := w.cfg.Mode == ModeExtend
	end := time.Now().Add(d)
	for {
		now := time.Now()
		if !now.Before(end) {
			return nil
		}
		if extending && !now.Before(w.nextWatch) {
			r, err := w.send(runScript(scripts.Extend, w.keys.lock, w.token, w.ttlMS))
			if err != nil {
				return err
			}
			if r[0].Int == 1 {
				w.c.extensions.Add(1)
			} else {
				w.c.lostExtensions.Add(1)
			}
			now = time.Now()
			w.nextWatch = now.Add(w.cfg.TTL / 3)
		}
		next := end
		if extending && w.nextWatch.Before(next) {
			next = w.nextWatch
		}
		if !w.sleep(next.Sub(now)) {
			return nil
		}
	}
}

// sleep waits d, or less when the run stops; it reports whether the run
// goes on.
func (w *worker) sleep(d time.Duration) bool {
	if d <= 0 {
		return w.runCtx.Err() == nil
	}
	w.timer.Reset(d)
	select {
	case <-w.timer.C:
		return true
	case <-w.runCtx.Done():
		w.timer.Stop()
		return false
	}
}
