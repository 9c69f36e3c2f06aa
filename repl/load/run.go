package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locklab/locklab/repl/resp"
)

// Conn is one worker's dedicated connection; *session.Conn is one.
type Conn interface {
	Do(ctx context.Context, args []string) (resp.Reply, error)
	Close()
}

// grace is how long, after a stop, the workers' commands in flight may
// take to finish: a stopped worker cuts its work and pauses short, but
// still writes, leaves and releases (a few round trips), so the counts and
// the server's state stay consistent. Against a server that does not
// answer, the commands are cut after grace.
const grace = 50 * time.Millisecond

// retryDelay is the pause between two failed acquisition attempts: about
// 1ms, plus up to retryJitter so the workers do not move in lockstep.
const (
	retryDelay  = time.Millisecond
	retryJitter = 500 * time.Microsecond
)

// counters are the run's tallies, shared by all workers.
type counters struct {
	acquisitions, failed, expired, wrongOwner, skipped, overlaps,
	fencedRejected, extensions, lostExtensions, sections, writes, done atomic.Int64
}

// keys are the lock key and the keys derived from it.
type keys struct {
	lock, resource, inside, fence, fenceLast string
}

func keysFor(k string) keys {
	return keys{lock: k, resource: k + ":resource", inside: k + ":inside", fence: k + ":fence", fenceLast: k + ":fence:last"}
}

// errStopped says a worker stopped because the run was stopped.
var errStopped = errors.New("stopped")

// Run runs cfg: workers 1..N, each on dial(worker), and a control
// connection dial(0) that deletes the keys first and reads the resource at
// the end. progress, when not nil, gets a live progress bar (give it a
// terminal only). Run fills cfg's zero Workers, Iterations, Mode, TTL and
// Key with their defaults; zero Work means no work.
//
// When ctx is cancelled the workers stop within a few milliseconds (at
// most grace, 50ms, on a server that stops answering) and Run returns the
// stats of what ran, with Interrupted set. An error (a broken connection,
// an unexpected reply) stops the run too, and comes back with the stats.
func Run(ctx context.Context, dial func(worker int) Conn, cfg Config, progress io.Writer) (Stats, error) {
	cfg, err := cfg.normalized()
	stats := Stats{Mode: cfg.Mode, Workers: cfg.Workers, Iterations: cfg.Iterations}
	if err != nil {
		return stats, fmt.Errorf("load: %w", err)
	}
	r := &runner{cfg: cfg, keys: keysFor(cfg.Key), ttlMS: strconv.FormatInt(cfg.TTL.Milliseconds(), 10)}
	ctl := dial(0)
	defer ctl.Close()
	if err := r.prepare(ctx, ctl); err != nil {
		stats.Interrupted = ctx.Err() != nil
		if stats.Interrupted {
			return stats, nil
		}
		return stats, err
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	cmdCtx, cmdStop := context.WithCancel(context.WithoutCancel(ctx))
	defer cmdStop()
	context.AfterFunc(runCtx, func() { time.AfterFunc(grace, cmdStop) })

	var bar *progressBar
	if progress != nil {
		bar = newProgressBar(progress, cfg, &r.c)
	}
	start := time.Now()
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for id := 1; id <= cfg.Workers; id++ {
		wg.Go(func() {
			w := newWorker(r, id, dial(id), runCtx, cmdCtx)
			defer w.close()
			if err := w.run(); err != nil && runCtx.Err() == nil {
				errOnce.Do(func() { firstErr = err })
				stop()
			}
		})
	}
	wg.Wait()
	stats.Elapsed = time.Since(start)
	stats.Interrupted = ctx.Err() != nil
	if bar != nil {
		bar.finish()
	}

	// The final read: the run's own ctx, or a short grace when stopped.
	readCtx := ctx
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		readCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), grace)
		defer cancel()
	}
	resource, rerr := readInt(readCtx, ctl, r.keys.resource)
	r.c.fill(&stats)
	stats.Resource = resource
	if firstErr != nil {
		return stats, firstErr
	}
	if rerr != nil && !stats.Interrupted {
		return stats, fmt.Errorf("load: reading %s: %w", r.keys.resource, rerr)
	}
	return stats, nil
}

func (c *counters) fill(s *Stats) {
	s.Acquisitions = c.acquisitions.Load()
	s.FailedAttempts = c.failed.Load()
	s.ExpiredWhileHeld = c.expired.Load()
	s.WrongOwnerDeletes = c.wrongOwner.Load()
	s.SkippedReleases = c.skipped.Load()
	s.Overlaps = c.overlaps.Load()
	s.FencedRejected = c.fencedRejected.Load()
	s.Extensions = c.extensions.Load()
	s.LostExtensions = c.lostExtensions.Load()
	s.Sections = c.sections.Load()
	s.Expected = c.writes.Load()
}

// runner is what the workers share.
type runner struct {
	cfg   Config
	keys  keys
	ttlMS string
	c     counters
}

// prepare deletes the run's keys and loads the scripts.
func (r *runner) prepare(ctx context.Context, ctl Conn) error {
	k := r.keys
	if _, err := command(ctx, ctl, "DEL", k.lock, k.resource, k.inside, k.fence, k.fenceLast); err != nil {
		return err
	}
	for _, s := range allScripts {
		reply, err := command(ctx, ctl, "SCRIPT", "LOAD", s.src)
		if err != nil {
			return err
		}
		if reply.Str != s.sha {
			return fmt.Errorf("load: SCRIPT LOAD answered %s, expected %s", reply.Str, s.sha)
		}
	}
	return nil
}

// command sends one command and turns an error reply into an error.
func command(ctx context.Context, c Conn, args ...string) (resp.Reply, error) {
	reply, err := c.Do(ctx, args)
	if err != nil {
		return reply, fmt.Errorf("load: %s: %w", args[0], err)
	}
	if reply.Kind == resp.Error {
		return reply, fmt.Errorf("load: %s: %s", args[0], reply.Str)
	}
	return reply, nil
}

func readInt(ctx context.Context, c Conn, key string) (int64, error) {
	reply, err := command(ctx, c, "GET", key)
	if err != nil {
		return 0, err
	}
	return intValue(reply)
}

// intValue reads a counter's value: a bulk number, or 0 for a missing key.
func intValue(r resp.Reply) (int64, error) {
	switch r.Kind {
	case resp.Nil:
		return 0, nil
	case resp.Int:
		return r.Int, nil
	case resp.Bulk, resp.Status:
		return strconv.ParseInt(r.Str, 10, 64)
	}
	return 0, fmt.Errorf("expected a number, got %v", r)
}

// worker is one goroutine, on its own connection, doing its cycles.
type worker struct {
	*runner
	id     int
	name   string // w3
	conn   Conn
	runCtx context.Context // sleeps stop when it is done
	cmdCtx context.Context // commands: outlives runCtx by grace
	cancel context.CancelFunc
	timer  *time.Timer

	token     string
	fence     string    // fenced mode: this section's fencing token
	nextWatch time.Time // extend mode: when the watchdog runs next
}

func newWorker(r *runner, id int, conn Conn, runCtx, cmdCtx context.Context) *worker {
	// A context of its own, so that each command's cancellation hook does
	// not contend with the other workers' on a shared one.
	cmdCtx, cancel := context.WithCancel(cmdCtx)
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &worker{runner: r, id: id, name: "w" + strconv.Itoa(id), conn: conn,
		runCtx: runCtx, cmdCtx: cmdCtx, cancel: cancel, timer: t}
}

func (w *worker) close() {
	w.conn.Close()
	w.cancel()
	w.timer.Stop()
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

// cycle is one acquire, enter, read, work, write, leave, release.
func (w *worker) cycle(i int) error {
	k := &w.keys
	w.token = w.name + "-i" + strconv.Itoa(i)
	if err := w.acquire(); err != nil {
		return err
	}
	acquired := time.Now()
	w.c.acquisitions.Add(1)
	if w.cfg.Mode == ModeFenced {
		r, err := w.do("INCR", k.fence)
		if err != nil {
			return err
		}
		w.fence = strconv.FormatInt(r.Int, 10)
	}

	// Enter: the server counts who is inside.
	r, err := w.do("INCR", k.inside)
	if err != nil {
		return err
	}
	w.c.sections.Add(1)
	if r.Int > 1 {
		w.c.overlaps.Add(1)
	}

	// Read, work, write.
	var value int64
	if w.cfg.Mode != ModeFenced {
		if r, err = w.do("GET", k.resource); err != nil {
			return err
		}
		if value, err = intValue(r); err != nil {
			return fmt.Errorf("%s: GET %s: %w", w.name, k.resource, err)
		}
	}
	if err := w.work(i, acquired); err != nil {
		return err
	}
	if w.cfg.Mode == ModeFenced {
		if r, err = w.eval(fencedWrite, k.resource, k.fenceLast, w.fence); err != nil {
			return err
		}
		if r.Int < 0 {
			w.c.fencedRejected.Add(1)
		} else {
			w.c.writes.Add(1)
		}
	} else {
		if _, err = w.do("SET", k.resource, strconv.FormatInt(value+1, 10)); err != nil {
			return err
		}
		w.c.writes.Add(1)
	}

	// Leave, release.
	if _, err = w.do("DECR", k.inside); err != nil {
		return err
	}
	return w.release()
}

// acquire takes the lock with SET NX PX, trying again about every
// millisecond. A stop between attempts ends it with errStopped.
func (w *worker) acquire() error {
	for {
		r, err := w.do("SET", w.keys.lock, w.token, "NX", "PX", w.ttlMS)
		if err != nil {
			return err
		}
		if r.Kind == resp.Status && r.Str == "OK" {
			return nil
		}
		if r.Kind != resp.Nil {
			return fmt.Errorf("%s: SET %s NX: unexpected reply %v", w.name, w.keys.lock, r)
		}
		w.c.failed.Add(1)
		if !w.sleep(retryDelay + rand.N(retryJitter)) {
			return errStopped
		}
	}
}

func (w *worker) release() error {
	k := &w.keys
	if w.cfg.Mode == ModeBreak {
		r, err := w.eval(plainRelease, k.lock)
		if err != nil {
			return err
		}
		switch {
		case r.Kind == resp.Nil:
			w.c.expired.Add(1) // it expired, and nobody took it
		case r.Str != w.token:
			w.c.expired.Add(1) // it expired, and we deleted the next holder's
			w.c.wrongOwner.Add(1)
		}
		return nil
	}
	r, err := w.eval(safeRelease, k.lock, w.token)
	if err != nil {
		return err
	}
	switch r.Int {
	case 0:
		w.c.expired.Add(1)
		w.c.skipped.Add(1) // another worker's lock: left alone
	case -1:
		w.c.expired.Add(1)
	}
	return nil
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
			r, err := w.eval(extend, w.keys.lock, w.token, w.ttlMS)
			if err != nil {
				return err
			}
			if r.Int == 1 {
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

// do sends one command; an error reply is an error.
func (w *worker) do(args ...string) (resp.Reply, error) {
	r, err := w.conn.Do(w.cmdCtx, args)
	if err != nil {
		return r, fmt.Errorf("%s: %s: %w", w.name, args[0], err)
	}
	if r.Kind == resp.Error {
		return r, fmt.Errorf("%s: %s %s: %s", w.name, args[0], args[1], r.Str)
	}
	return r, nil
}

// eval runs s with EVALSHA (EVAL after a NOSCRIPT): its keys, then its
// other arguments.
func (w *worker) eval(s *script, keysThenArgs ...string) (resp.Reply, error) {
	args := make([]string, 0, 3+len(keysThenArgs))
	args = append(args, "EVALSHA", s.sha, strconv.Itoa(s.keys))
	args = append(args, keysThenArgs...)
	r, err := w.conn.Do(w.cmdCtx, args)
	if err == nil && r.Kind == resp.Error && strings.HasPrefix(r.Str, "NOSCRIPT") {
		args[0], args[1] = "EVAL", s.src
		r, err = w.conn.Do(w.cmdCtx, args)
	}
	if err != nil {
		return r, fmt.Errorf("%s: EVALSHA: %w", w.name, err)
	}
	if r.Kind == resp.Error {
		return r, fmt.Errorf("%s: EVALSHA: %s", w.name, r.Str)
	}
	return r, nil
}
