package load

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
)

// TestCancel stops runs in the middle of work, of a pause and of the
// acquisition retries: Run must return within 100ms, with Interrupted,
// consistent counts, and the server left as the counts say: clean
// (nobody inside, no lock) unless the stop cut round trips before their
// answers.
//
// On the embedded server the runs are in synctest bubbles (see redis),
// where the 100ms is exact: Run's return comes later on the bubble's
// clock only if it waited on a timer (a pause, the work, the stop's
// grace), not because the machine was busy. On a real server, in real
// time, it is 2 s, what no load we have seen takes, which still catches
// a run that sits out its 10 s pause.
func TestCancel(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
	}{
		{"fix-mid-work", Config{Workers: 8, Iterations: 100, Mode: ModeFix, TTL: 200 * time.Millisecond, Work: 300 * time.Millisecond}},
		{"extend-mid-pause", Config{Workers: 8, Iterations: 100, Mode: ModeExtend, TTL: 100 * time.Millisecond, Work: 200 * time.Millisecond, Pause: 10 * time.Second, PauseEvery: 1}},
		{"fenced-no-work", Config{Workers: 50, Iterations: 100000, Mode: ModeFenced, TTL: time.Second}},
		{"break-jitter", Config{Workers: 8, Iterations: 100, Mode: ModeBreak, TTL: 50 * time.Millisecond, Work: 60 * time.Millisecond, Jitter: 40 * time.Millisecond}},
	}
	eachServer(t, func(t *testing.T, r redis) {
		t.Parallel()
		limit := 2 * time.Second
		if r.embedded {
			limit = 100 * time.Millisecond
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r.inBubble(t, func(t *testing.T, dial func(int) Conn) {
					cfg := c.cfg
					cfg.Key = "lock:cancel:" + c.name
					ctx, cancel := context.WithCancel(context.Background())
					var cancelled atomic.Int64
					var once sync.Once
					stop := func() {
						once.Do(func() {
							cancelled.Store(time.Now().UnixNano())
							cancel()
						})
					}
					// 150ms after the first worker is in (not after a fixed
					// time: on a loaded machine none may be in yet), mid-work
					// or pause; or at the 200th entry, for a run with no
					// work, whose workers keep the bubble's clock from
					// moving.
					s, err := Run(ctx, onEntered(dial, cfg.Key, func(n int64) {
						switch n {
						case 1:
							time.AfterFunc(150*time.Millisecond, stop)
						case 200:
							stop()
						}
					}), cfg, nil)
					latency := time.Since(time.Unix(0, cancelled.Load()))
					if err != nil {
						t.Fatal(err)
					}
					t.Logf("returned %v after the cancel; %d sections", latency.Round(10*time.Microsecond), s.Sections)
					if latency > limit {
						t.Errorf("Run returned %v after the cancel, want within %v", latency, limit)
					}
					if !s.Interrupted || s.Sections == 0 || s.Sections >= int64(cfg.Workers*cfg.Iterations) {
						t.Errorf("interrupted %v after %d sections: want a stopped run that did something", s.Interrupted, s.Sections)
					}
					checkConsistent(t, s, cfg)
					if !strings.Contains(s.Table(), "interrupted") {
						t.Error("the table must say the run was interrupted")
					}
					checkClean(t, dial, cfg.Key, s)
				})
			})
		}
	})
}

// onEntered wraps dial's connections: each time a worker has counted
// itself in (INCR KEY:inside), entered runs with the number of entries so
// far, 1 the first.
func onEntered(dial func(int) Conn, key string, entered func(n int64)) func(int) Conn {
	var n atomic.Int64
	return func(w int) Conn {
		return &entering{Conn: dial(w), inside: key + ":inside", n: &n, entered: entered}
	}
}

type entering struct {
	Conn
	inside  string
	n       *atomic.Int64
	entered func(n int64)
}

func (e *entering) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	r, err := e.Conn.DoBatch(ctx, batch)
	if err == nil && len(batch) > 0 && len(batch[0]) == 2 && batch[0][0] == "INCR" && batch[0][1] == e.inside {
		e.entered(e.n.Add(1))
	}
	return r, err
}

// checkClean checks what a stopped run left on the server: none of its
// keys, deleted at its end, when every round trip was answered. A round
// trip the stop cut may still have run after that deletion: an
// acquisition may leave a lock (until its TTL), an entry a worker counted
// inside or a leave it counted out (KEY:inside below 0), at most one per
// cut round trip.
func checkClean(t *testing.T, dial func(int) Conn, key string, s Stats) {
	t.Helper()
	c := dial(0)
	defer c.Close()
	ctx := context.Background()
	n, err := command(ctx, c, append([]string{"EXISTS"}, keysFor(key).all()...)...)
	if err != nil {
		t.Fatal(err)
	}
	inside, err := readInt(ctx, c, key+":inside")
	if err != nil {
		t.Fatal(err)
	}
	if s.Unanswered == 0 && n.Int != 0 {
		t.Errorf("after the run: %d of its keys left; want none", n.Int)
	}
	if s.Unanswered > 0 {
		t.Logf("the stop cut %d round trips (%d writes): %d keys left, %s:inside = %d", s.Unanswered, s.UnconfirmedWrites, n.Int, key, inside)
		if inside < -s.Unanswered || inside > s.Unanswered {
			t.Errorf("after the run: %s:inside = %d, with %d round trips cut", key, inside, s.Unanswered)
		}
	}
}

// fakeConn answers the preparation like a server, acquires every lock,
// and then hangs on the command named hang until its ctx is done, or
// answers it with an error reply.
type fakeConn struct {
	hang  string
	error string // when set, the error reply for hang instead of hanging
}

func (f *fakeConn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	switch strings.ToUpper(args[0]) {
	case f.hang:
		if f.error != "" {
			return resp.Reply{Kind: resp.Error, Str: f.error}, nil
		}
		<-ctx.Done()
		return resp.Reply{}, ctx.Err()
	case "SCRIPT":
		sum := sha1.Sum([]byte(args[2]))
		return resp.Reply{Kind: resp.Bulk, Str: hex.EncodeToString(sum[:])}, nil
	case "SET":
		return resp.Reply{Kind: resp.Status, Str: "OK"}, nil
	case "GET":
		return resp.Reply{Kind: resp.Nil}, nil
	case "EVAL": // the check of the keys: none of them exists
		return resp.Reply{Kind: resp.Array}, nil
	}
	return resp.Reply{Kind: resp.Int, Int: 1}, nil
}

// DoBatch answers each command as Do does, stopping at a hang.
func (f *fakeConn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	return doEach(ctx, f, batch)
}

// Stream confirms a SUBSCRIBE's channels, as a server does, and sends
// nothing more until end (or ctx) is done.
func (f *fakeConn) Stream(ctx, end context.Context, args []string, each func(resp.Reply)) error {
	for i, channel := range args[1:] {
		each(resp.Reply{Kind: resp.Array, Elems: []resp.Reply{{Kind: resp.Bulk, Str: "subscribe"},
			{Kind: resp.Bulk, Str: channel}, {Kind: resp.Int, Int: int64(i + 1)}}})
	}
	select {
	case <-end.Done():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeConn) Close() {}

// doEach sends a batch's commands one by one with c.Do, as a pipeline
// would, so a test's Do sees every command.
func doEach(ctx context.Context, c interface {
	Do(context.Context, []string) (resp.Reply, error)
}, batch [][]string) ([]resp.Reply, error) {
	var replies []resp.Reply
	for _, args := range batch {
		r, err := c.Do(ctx, args)
		if err != nil {
			return replies, err
		}
		replies = append(replies, r)
	}
	return replies, nil
}

// TestCancelHungServer: against a server that stops answering, the
// commands in flight are cut after the grace period.
//
// In a synctest bubble (no network: fakeConn), the grace is exact: Run
// returns when the bubble's clock has moved by it, however busy the
// machine.
func TestCancelHungServer(t *testing.T) { synctest.Test(t, cancelHungServer) }

func cancelHungServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled atomic.Int64
	time.AfterFunc(100*time.Millisecond, func() {
		cancelled.Store(time.Now().UnixNano())
		cancel()
	})
	dial := func(int) Conn { return &fakeConn{hang: "INCR"} }
	s, err := Run(ctx, dial, Config{Workers: 3, Iterations: 2, Mode: ModeFix}, nil)
	latency := time.Since(time.Unix(0, cancelled.Load()))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("returned %v after the cancel", latency.Round(10*time.Microsecond))
	if latency != grace {
		t.Errorf("returned %v after the cancel, want the %v grace", latency, grace)
	}
	if !s.Interrupted || s.Acquisitions != 3 || s.Sections != 0 {
		t.Errorf("want an interrupted run with 3 acquisitions and no section entered, got\n%s", s.Table())
	}
}

// TestWorkerError: an error reply stops the whole run, and comes back.
// (In a synctest bubble: the second it may take is the bubble's, spent
// only on timers.)
func TestWorkerError(t *testing.T) { synctest.Test(t, workerError) }

func workerError(t *testing.T) {
	var dials sync.Map
	dial := func(w int) Conn {
		dials.Store(w, true)
		return &fakeConn{hang: "DECR", error: "ERR boom"}
	}
	start := time.Now()
	s, err := Run(context.Background(), dial, Config{Workers: 5, Iterations: 10, Mode: ModeFix, Work: time.Millisecond}, nil)
	if err == nil || !strings.Contains(err.Error(), "ERR boom") || !strings.Contains(err.Error(), "DECR") {
		t.Fatalf("want the DECR error, got %v", err)
	}
	if s.Interrupted || s.Sections == 0 || s.Sections >= 50 {
		t.Errorf("want a run stopped early, not interrupted, got\n%s", s.Table())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the run took %v to stop", d)
	}
	for w := 0; w <= 5; w++ {
		if _, ok := dials.Load(w); !ok {
			t.Errorf("worker %d was not dialled", w)
		}
	}
}

// flushingConn flushes the server's scripts before its first EVALSHA, so
// the worker must fall back to EVAL.
type flushingConn struct {
	*session.Conn
	once  sync.Once
	evals *atomic.Int64
}

func (f *flushingConn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	switch args[0] {
	case "EVALSHA":
		f.once.Do(func() { f.Conn.Do(ctx, []string{"SCRIPT", "FLUSH"}) })
	case "EVAL":
		f.evals.Add(1)
	}
	return f.Conn.Do(ctx, args)
}

// DoBatch is a real pipeline, so the NOSCRIPT comes back inside one.
func (f *flushingConn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	for _, args := range batch {
		if args[0] == "EVALSHA" {
			f.once.Do(func() { f.Conn.Do(ctx, []string{"SCRIPT", "FLUSH"}) })
		}
	}
	return f.Conn.DoBatch(ctx, batch)
}

// TestNoScriptFallback: after a SCRIPT FLUSH, a script alone (fenced
// mode's write) or at the end of a pipeline (the release, in both modes)
// runs with EVAL, and the run stays clean.
func TestNoScriptFallback(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		addr := r.addr
		for _, mode := range []string{ModeFix, ModeFenced} {
			t.Run(mode, func(t *testing.T) {
				var evals atomic.Int64
				base := dialer(addr)
				dial := func(w int) Conn {
					if w == 0 {
						return base(w) // the control connection's check of the keys is an EVAL too
					}
					return &flushingConn{Conn: base(w).(*session.Conn), evals: &evals}
				}
				cfg := Config{Workers: 3, Iterations: 3, Mode: mode, TTL: time.Second, Key: "lock:noscript:" + mode}
				s, err := Run(context.Background(), dial, cfg, nil)
				if err != nil {
					t.Fatal(err)
				}
				if evals.Load() == 0 {
					t.Error("no EVAL after NOSCRIPT")
				}
				if s.Resource != 9 || s.WritesAccepted != 9 || s.Overlaps != 0 || s.ExpiredWhileHeld != 0 {
					t.Errorf("want 9 clean sections, got\n%s", s.Table())
				}
			})
		}
	})
}

// countingConn counts the round trips a worker makes.
type countingConn struct {
	*session.Conn
	trips *atomic.Int64
}

func (c *countingConn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	c.trips.Add(1)
	return c.Conn.Do(ctx, args)
}

func (c *countingConn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	c.trips.Add(1)
	return c.Conn.DoBatch(ctx, batch)
}

// TestRoundTrips: on a lock nobody else wants, a fix-mode cycle is three
// round trips for its six commands; fenced mode takes one more, as its
// write is a script that must run before the worker leaves. (Each worker
// also connects first, with a PING before the run's time starts.)
func TestRoundTrips(t *testing.T) {
	addr := redistest.Real(t)
	for mode, want := range map[string]int64{ModeFix: 3, ModeBreak: 3, ModeExtend: 3, ModeFenced: 4} {
		var trips atomic.Int64
		base := dialer(addr)
		dial := func(w int) Conn {
			if w == 0 {
				return base(w)
			}
			return &countingConn{Conn: base(w).(*session.Conn), trips: &trips}
		}
		cfg := Config{Workers: 2, Locks: 2, Iterations: 5, Mode: mode, TTL: time.Second, Key: "lock:trips:" + mode}
		s, err := Run(context.Background(), dial, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Sections != 10 || s.FailedAttempts != 0 || trips.Load() != want*10+2 {
			t.Errorf("%s: %d round trips for %d sections (%d failed attempts); want %d each and the 2 workers' PINGs", mode, trips.Load(), s.Sections, s.FailedAttempts, want)
		}
	}
}

// lateConn is a real connection whose answers come too late once the run
// is stopped: the server runs each command, but the answer is held until
// the command's ctx is done (the stop's grace is over), as with a server
// too busy to answer in time. It stops the run itself, right after its
// worker has entered its first section.
type lateConn struct {
	*session.Conn
	run  context.Context
	stop context.CancelFunc
}

func (c *lateConn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	r, err := c.Conn.Do(context.WithoutCancel(ctx), args)
	return c.late(ctx, r, err)
}

func (c *lateConn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	stopped := c.run.Err() != nil
	r, err := c.Conn.DoBatch(context.WithoutCancel(ctx), batch)
	if !stopped && batch[0][0] == "INCR" && strings.HasSuffix(batch[0][1], ":inside") {
		c.stop() // in the section, before the work
		return r, err
	}
	if c.run.Err() == nil {
		return r, err
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (c *lateConn) late(ctx context.Context, r resp.Reply, err error) (resp.Reply, error) {
	if c.run.Err() == nil {
		return r, err
	}
	<-ctx.Done()
	return resp.Reply{}, ctx.Err()
}

// TestCancelUnansweredWrite: a stop lands in a section; the write that
// ends it runs on the server, but its answer comes after the grace and is
// cut. The resource shows a write that WritesAccepted cannot count: the stats
// say so (an unconfirmed write), and the verdict is no lost-update FAIL.
func TestCancelUnansweredWrite(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		addr := r.addr
		for _, mode := range []string{ModeFix, ModeFenced} {
			t.Run(mode, func(t *testing.T) {
				run, stop := context.WithCancel(context.Background())
				defer stop()
				base := dialer(addr)
				dial := func(w int) Conn {
					if w == 0 {
						return base(w)
					}
					return &lateConn{Conn: base(w).(*session.Conn), run: run, stop: stop}
				}
				cfg := Config{Workers: 3, Iterations: 5, Mode: mode, TTL: 5 * time.Second, Work: time.Second, Key: "lock:late:" + mode}
				s, err := Run(run, dial, cfg, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkConsistent(t, s, cfg)
				if !s.Interrupted || s.Sections != 1 || s.WritesAccepted != 0 || s.UnconfirmedWrites != 1 || s.Resource != 1 {
					t.Errorf("want one section, its write unconfirmed yet in the resource, got\n%s", s.Table())
				}
				if out := s.Table(); !strings.Contains(out, "round trip(s) got no answer") || !strings.Contains(out, "verdict: interrupted; so far: OK") {
					t.Errorf("want a note on the cut round trips and no FAIL, got\n%s", out)
				}
				checkClean(t, dialer(addr), cfg.Key, s)
			})
		}
	})
}

// stoppable is a server a test can stop in the middle of a run, one of
// each kind.
func stoppable(t *testing.T) map[string]struct {
	addr string
	stop func()
} {
	e, err := server.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	out := map[string]struct {
		addr string
		stop func()
	}{"embedded": {e.Addr(), e.Close}}
	p, err := server.StartProcess(context.Background(), t.TempDir())
	if err == nil {
		t.Cleanup(p.Close)
		out["real"] = struct {
			addr string
			stop func()
		}{p.Addr(), p.Close}
	} else if !errors.Is(err, server.ErrNoRedisServer) || redistest.InCI() {
		t.Fatal(err)
	}
	return out
}

// TestServerGone: the server stops in the middle of a run. The final read
// fails, so the resource is no number and the verdict UNKNOWN, with the
// error; the keys could not be deleted, and a note says so. (Before, the
// resource counted as 0 and the verdict said FAIL, lost updates.)
func TestServerGone(t *testing.T) {
	for kind, srv := range stoppable(t) {
		t.Run(kind, func(t *testing.T) {
			cfg := Config{Workers: 4, Iterations: 100000, Mode: ModeFix, TTL: time.Second, Work: time.Millisecond, Key: "lock:gone"}
			// The server stops once the run is in (at its 20th section),
			// not at a time: on a loaded machine the run may not have
			// started by then.
			s, err := Run(context.Background(), onEntered(dialer(srv.addr), cfg.Key, func(n int64) {
				if n == 20 {
					go srv.stop()
				}
			}), cfg, nil)
			if err == nil || errors.Is(err, ErrNotStarted) || s.Sections == 0 {
				t.Fatalf("want a run that started, then an error; got %v after %d sections", err, s.Sections)
			}
			out := s.Table()
			if s.ResourceRead || s.Outcome() != Unknown || !strings.Contains(out, "\nverdict: UNKNOWN: the run stopped on an error: ") || err.Error() != "load: "+s.Error {
				t.Errorf("want no resource read and an UNKNOWN verdict with %q, got\n%s", err, out)
			}
			for _, row := range []string{"resource", "resource+refused+lost"} {
				if !strings.Contains(out, fmt.Sprintf("\n  %-22s %9s   ", row, "?")) {
					t.Errorf("the %s row is not ?:\n%s", row, out)
				}
			}
			if s.CleanupError == "" || !strings.Contains(out, "\nnote: the run's keys could not be deleted: ") {
				t.Errorf("want a note that the keys are left, got\n%s", out)
			}
			if !strings.Contains(s.JSON(), `"resource":null`) {
				t.Errorf("JSON: %s", s.JSON())
			}
		})
	}
}

// TestNotStarted: on a server that is not there, the run does not start,
// and says so.
func TestNotStarted(t *testing.T) {
	srv := stoppable(t)["embedded"]
	srv.stop()
	_, err := Run(context.Background(), dialer(srv.addr), Config{Workers: 2, Iterations: 2}, nil)
	if !errors.Is(err, ErrNotStarted) || !strings.Contains(err.Error(), "load: the run did not start: ") {
		t.Errorf("want the run not started, got %v", err)
	}
}
