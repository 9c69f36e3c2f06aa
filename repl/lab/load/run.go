package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/keyguard"
	"github.com/locklab/locklab/repl/lab/load/progress"
)

// Conn is one worker's dedicated connection; *session.Conn is one.
// DoBatch sends its commands in one pipeline and answers their replies in
// order, as Do would one by one. Stream sends a command whose replies
// keep coming (SUBSCRIBE: --retry notify's, on the control connection)
// and passes each on until end is done (ctx cuts it); the next command
// goes on a new connection.
type Conn interface {
	Do(ctx context.Context, args []string) (resp.Reply, error)
	DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error)
	Stream(ctx, end context.Context, args []string, each func(resp.Reply)) error
	Close()
}

// grace is how long, after a stop, the workers' commands in flight may
// take to finish: a stopped worker cuts its work and pauses short, but
// still writes, leaves and releases (a few round trips), so the counts and
// the server's state stay consistent. Against a server that does not
// answer, the commands are cut after grace; so are those of a server too
// busy to answer in time. A cut round trip may or may not have run on the
// server: Stats counts them (Unanswered) and the writes among them
// (UnconfirmedWrites), so that what is left on the server is accounted for.
const grace = 50 * time.Millisecond

// counters are the run's tallies, shared by all workers.
type counters struct {
	acquisitions, failed, expired, wrongOwner, skipped, overlaps,
	fencedRejected, extensions, lostExtensions, sections, writes, lost,
	done, commands, unanswered, unconfirmedWrites atomic.Int64
}

// keys are the lock key and the keys derived from it.
type keys struct {
	lock, resource, inside, fence, fenceLast, waiting string
}

func keysFor(k string) keys {
	return keys{lock: k, resource: k + ":resource", inside: k + ":inside", fence: k + ":fence", fenceLast: k + ":fence:last",
		waiting: k + ":waiting"}
}

// all is the keys in the order DEL takes them.
func (k keys) all() []string {
	return []string{k.lock, k.resource, k.inside, k.fence, k.fenceLast, k.waiting}
}

// locksFor is the run's locks: the key itself for one lock, KEY:1 to
// KEY:K for K of them.
func locksFor(key string, k int) []keys {
	if k == 1 {
		return []keys{keysFor(key)}
	}
	locks := make([]keys, k)
	for i := range locks {
		locks[i] = keysFor(key + ":" + strconv.Itoa(i+1))
	}
	return locks
}

// keysPerCommand bounds the keys of one DEL or MGET, so that 10,000 locks
// do not make one 50,000-argument command.
const keysPerCommand = 1000

// errStopped says a worker stopped because the run was stopped.
var errStopped = errors.New("stopped")

// ErrNotStarted is a run that stopped before its first worker started:
// its keys could not be prepared (the server is down, say). Its stats
// hold nothing worth printing.
var ErrNotStarted = errors.New("load: the run did not start")

// endWait bounds each step of a run's end that must happen even after a
// stop (the final read of a stopped run, the deletion of the keys):
// enough for a server that answers, short after a Ctrl-C or on a server
// gone.
const endWait = 250 * time.Millisecond

// Run runs cfg: workers 1..N, each on dial(worker), and a control
// connection dial(0) that checks the keys hold nothing the lab did not
// write (a *keyguard.ForeignError, in ErrNotStarted, when one does: then
// nothing is deleted), deletes them, reads the resource at the end and
// deletes the keys again (best effort, whatever happened: a cleanup that
// fails is in Stats.CleanupError). progress, when not nil,
// gets a live progress bar (give it a terminal only). Run fills cfg's
// zero Workers, Iterations, Mode, TTL, Key and Locks with their defaults;
// zero Work means no work.
//
// When ctx is cancelled the workers stop within a few milliseconds (at
// most grace, 50ms, on a server that stops answering) and Run returns the
// stats of what ran, with Interrupted set. An error (a broken connection,
// an unexpected reply, a final read that fails) stops the run too, and
// comes back with the stats, in Stats.Error as well: such a run has no
// verdict but UNKNOWN.
func Run(ctx context.Context, dial func(worker int) Conn, cfg Config, progress io.Writer) (Stats, error) {
	cfg, err := cfg.normalized()
	stats := Stats{Mode: cfg.Mode, Retry: cfg.Retry, Workers: cfg.Workers, Iterations: cfg.Iterations, Locks: cfg.Locks}
	if err != nil {
		return stats, fmt.Errorf("load: %w", err)
	}
	ctx, untrack := track(ctx)
	defer untrack()
	r := &runner{cfg: cfg, locks: locksFor(cfg.Key, cfg.Locks), ttlMS: strconv.FormatInt(cfg.TTL.Milliseconds(), 10)}
	ctl := dial(0)
	defer ctl.Close()
	if err := r.checkKeys(ctx, ctl); err != nil {
		return notStarted(ctx, stats, err) // nothing deleted: the keys may not be the lab's
	}
	if err := r.prepare(ctx, ctl); err != nil {
		r.cleanup(ctx, ctl)
		return notStarted(ctx, stats, err)
	}
	if r.cfg.Retry == RetryNotify {
		if r.releases, err = listen(ctx, ctl, r.locks); err != nil {
			r.cleanup(ctx, ctl)
			return notStarted(ctx, stats, err)
		}
	}
	err = r.measure(ctx, dial, ctl, progress, &stats)
	if err := r.cleanup(ctx, ctl); err != nil {
		stats.CleanupError = err.Error()
	}
	return stats, err
}

// notStarted is the end of a run stopped before its workers started: an
// interrupted one, or one that could not start (ErrNotStarted).
func notStarted(ctx context.Context, stats Stats, err error) (Stats, error) {
	if ctx.Err() != nil {
		stats.Interrupted = true
		return stats, nil
	}
	return stats, fmt.Errorf("%w: %w", ErrNotStarted, err)
}

// measure runs the workers and reads the resource into stats; the error
// is the first worker's, or the final read's.
func (r *runner) measure(ctx context.Context, dial func(worker int) Conn, ctl Conn, progressTo io.Writer, stats *Stats) error {
	var bar *progress.Bar
	if progressTo != nil {
		bar = newProgressBar(progressTo, r.cfg, &r.c)
	}
	elapsed, err := r.runWorkers(ctx, dial)
	stats.Elapsed = elapsed
	stats.Interrupted = ctx.Err() != nil
	if r.releases != nil {
		if cut := r.releases.stop(); cut != nil && err == nil && !stats.Interrupted {
			err = fmt.Errorf("the release notifications stopped (the waiters fell back on the TTL): %w", cut)
		}
	}
	if bar != nil {
		bar.Finish()
	}
	resource, readErr := r.finalRead(ctx, ctl)
	r.c.fill(stats)
	stats.Resource, stats.ResourceRead = resource, readErr == nil
	if err != nil {
		err = fmt.Errorf("the run stopped on an error: %w", err)
	} else if readErr != nil {
		err = fmt.Errorf("the resource could not be read: %w", readErr)
	}
	if err != nil {
		stats.Error = err.Error()
		err = fmt.Errorf("load: %w", err)
	}
	if stats.Interrupted {
		return nil // a stopped run is what was asked for: its stats say the rest
	}
	return err
}

// runWorkers runs workers 1..N, each on dial(id), until all are done, one
// fails (which stops the others) or ctx ends, and returns the time they
// ran and the first failure. The workers connect first, start together
// once all are connected, and close their connections once all are done:
// the time is the cycles', not the dialling's nor the closing's (1,000
// connections take a third of a second to open). A stopped worker's
// commands get grace to finish.
func (r *runner) runWorkers(ctx context.Context, dial func(worker int) Conn) (time.Duration, error) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	cmdCtx, cmdStop := context.WithCancel(context.WithoutCancel(ctx))
	defer cmdStop()
	context.AfterFunc(runCtx, func() { time.AfterFunc(grace, cmdStop) })
	var (
		wg, connected, ran sync.WaitGroup
		errOnce            sync.Once
		firstErr           error
		start, closing     = make(chan struct{}), make(chan struct{})
	)
	fail := func(err error) {
		if err != nil && runCtx.Err() == nil {
			errOnce.Do(func() { firstErr = err })
			stop()
		}
	}
	connected.Add(r.cfg.Workers)
	ran.Add(r.cfg.Workers)
	for id := 1; id <= r.cfg.Workers; id++ {
		wg.Go(func() {
			w := newWorker(r, id, dial(id), runCtx, cmdCtx)
			defer w.close()
			err := w.connect()
			connected.Done()
			if fail(err); err == nil && w.started(start) {
				fail(w.run())
			}
			ran.Done()
			<-closing
		})
	}
	connected.Wait()
	began := time.Now()
	close(start)
	ran.Wait()
	elapsed := time.Since(began)
	close(closing)
	wg.Wait()
	return elapsed, firstErr
}

// finalRead reads the resource: within the run's ctx, or, when the run
// was stopped, within endWait.
func (r *runner) finalRead(ctx context.Context, ctl Conn) (int64, error) {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), endWait)
		defer cancel()
	}
	return r.readResources(ctx, ctl)
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
	s.WritesAccepted = c.writes.Load()
	s.LostUpdates = c.lost.Load()
	s.Commands = c.commands.Load()
	s.Unanswered = c.unanswered.Load()
	s.UnconfirmedWrites = c.unconfirmedWrites.Load()
}

// runner is what the workers share.
type runner struct {
	cfg      Config
	locks    []keys // worker w uses locks[(w-1) % len(locks)]
	ttlMS    string
	c        counters
	releases *releases // --retry notify: the announced releases, by lock
}

// checkKeys refuses a run whose keys hold data the lab did not write (on
// a real server, someone else's), before anything is deleted; on the
// lab's own server (Config.OwnServer) it sends nothing.
func (r *runner) checkKeys(ctx context.Context, ctl Conn) error {
	if r.cfg.OwnServer {
		return nil
	}
	var all []keyguard.Key
	for _, k := range r.locks {
		all = append(all, keyguard.Key{Name: k.lock, Ours: keyguard.Lock(isToken)})
		for _, counter := range []string{k.resource, k.inside, k.fence, k.fenceLast, k.waiting} {
			all = append(all, keyguard.Key{Name: counter, Ours: keyguard.Counter})
		}
	}
	send := func(ctx context.Context, args ...string) (resp.Reply, error) { return ctl.Do(ctx, args) }
	return keyguard.Guard{Word: "load", Flag: "--key", Send: send}.Check(ctx, all)
}

// tokenPattern is the workers' lock tokens: w3-i7 is worker 3's seventh
// cycle.
var tokenPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^w[1-9][0-9]*-i[1-9][0-9]*$`) })

func isToken(v string) bool { return tokenPattern().MatchString(v) }

// prepare deletes the run's keys and loads the scripts.
func (r *runner) prepare(ctx context.Context, ctl Conn) error {
	if err := r.deleteKeys(ctx, ctl); err != nil {
		return err
	}
	for _, s := range allScripts {
		reply, err := command(ctx, ctl, "SCRIPT", "LOAD", s.Body)
		if err != nil {
			return err
		}
		if reply.Str != s.SHA() {
			return fmt.Errorf("SCRIPT LOAD answered %s, expected %s", reply.Str, s.SHA())
		}
	}
	return nil
}

// deleteKeys deletes every key of the run's locks.
func (r *runner) deleteKeys(ctx context.Context, ctl Conn) error {
	var all []string
	for _, k := range r.locks {
		all = append(all, k.all()...)
	}
	for chunk := range slices.Chunk(all, keysPerCommand) {
		if _, err := command(ctx, ctl, append([]string{"DEL"}, chunk...)...); err != nil {
			return err
		}
	}
	return nil
}

// cleanup deletes the run's keys at its end, within endWait, even
// when ctx is done (Ctrl-C). Best effort: on a server gone it fails, and
// a round trip the stop cut may still land after it (a lock then expires
// with its TTL).
func (r *runner) cleanup(ctx context.Context, ctl Conn) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endWait)
	defer cancel()
	return r.deleteKeys(ctx, ctl)
}

// command sends one command and turns an error reply into an error.
func command(ctx context.Context, c Conn, args ...string) (resp.Reply, error) {
	reply, err := c.Do(ctx, args)
	if err != nil {
		return reply, fmt.Errorf("%s: %w", describe(args), err)
	}
	if reply.Kind == resp.Error {
		return reply, fmt.Errorf("%s: %s", describe(args), reply.Str)
	}
	return reply, nil
}

// readResources is the sum of the locks' protected counters.
func (r *runner) readResources(ctx context.Context, ctl Conn) (int64, error) {
	resources := make([]string, len(r.locks))
	for i, k := range r.locks {
		resources[i] = k.resource
	}
	var sum int64
	for chunk := range slices.Chunk(resources, keysPerCommand) {
		reply, err := command(ctx, ctl, append([]string{"MGET"}, chunk...)...)
		if err != nil {
			return 0, err
		}
		for i, e := range reply.Elems {
			n, err := intValue(e)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", chunk[i], err)
			}
			sum += n
		}
	}
	return sum, nil
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
