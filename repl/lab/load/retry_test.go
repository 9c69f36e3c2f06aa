package load

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
)

// TestRetryPolicies: each policy runs a contended lock to its end on
// both kinds of server, every section entered, the counts adding up, and
// the stats say which policy ran.
func TestRetryPolicies(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		t.Parallel()
		for _, policy := range RetryPolicies {
			t.Run(policy, func(t *testing.T) {
				t.Parallel()
				cfg := Config{Workers: 8, Iterations: 10, Mode: ModeFix, TTL: 2 * time.Second, Work: time.Millisecond,
					Key: "lock:retry:" + policy, Retry: policy}
				s, err := Run(context.Background(), r.dial, cfg, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkConsistent(t, s, cfg)
				if s.Retry != policy || s.Sections != 80 || s.Outcome() != OK {
					t.Errorf("want --retry %s, 80 sections, OK; got\n%s", policy, s.Table())
				}
				if !strings.HasPrefix(s.Table(), "load --mode fix --retry "+policy+": 8 workers") {
					t.Errorf("the heading does not say the policy:\n%s", s.Table())
				}
			})
		}
	})
}

// TestNotifyWakesOnRelease: with --retry notify, a waiter tries again
// when the holder's release is announced, not when the lock's TTL runs
// out: 5 workers × 3 sections of 2ms each under a 10s TTL end long before
// one TTL. On the embedded server the run is in a synctest bubble, whose
// clock moves only when every goroutine waits: the run's time there is
// the time it waited, exactly.
func TestNotifyWakesOnRelease(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		t.Parallel()
		r.inBubble(t, func(t *testing.T, dial func(int) Conn) {
			cfg := Config{Workers: 5, Iterations: 3, Mode: ModeFix, TTL: 10 * time.Second, Work: 2 * time.Millisecond,
				Key: "lock:notify", Retry: RetryNotify}
			s, err := Run(context.Background(), dial, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, s, cfg)
			if s.Sections != 15 || s.FailedAttempts == 0 {
				t.Errorf("want 15 sections and waiters (failed attempts), got\n%s", s.Table())
			}
			if s.Elapsed >= cfg.TTL/2 {
				t.Errorf("the run took %v: a waiter waited for the %v TTL, not for the release", s.Elapsed, cfg.TTL)
			}
		})
	})
}

// TestNotifyRefused: a server that refuses SUBSCRIBE (an ACL without
// channels) refuses --retry notify before anything runs, and says what to
// do; backoff runs there.
func TestNotifyRefused(t *testing.T) {
	addr := redistest.Real(t)
	conn := redistest.Dial(t, addr)
	if r, _ := conn.Do("ACL", "SETUSER", "default", "resetchannels"); r.Str != "OK" {
		t.Fatalf("ACL SETUSER: %v", r)
	}
	cfg := Config{Workers: 3, Iterations: 2, Mode: ModeFix, TTL: 2 * time.Second, Key: "lock:refused", Retry: RetryNotify}
	s, err := Run(context.Background(), dialer(addr), cfg, nil)
	if !errors.Is(err, ErrNotStarted) || !strings.Contains(err.Error(), "--retry notify: the server refused SUBSCRIBE (NOPERM") ||
		!strings.HasSuffix(err.Error(), "try --retry backoff") {
		t.Fatalf("want the run refused before it started, with what to do; got %v", err)
	}
	if s.Acquisitions != 0 {
		t.Errorf("a refused run acquired %d locks", s.Acquisitions)
	}
	if r, _ := conn.Do("EXISTS", "lock:refused", "lock:refused:resource", "lock:refused:inside"); r.Int != 0 {
		t.Errorf("a refused run left %d of its keys", r.Int)
	}
	cfg.Retry = RetryBackoff
	if s, err := Run(context.Background(), dialer(addr), cfg, nil); err != nil || s.Outcome() != OK {
		t.Errorf("backoff on the same server: %v\n%s", err, s.Table())
	}
}

// TestNotifyOnManyLocks: with --locks, each lock has its channel, and a
// release wakes a waiter of its own lock.
func TestNotifyOnManyLocks(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		t.Parallel()
		cfg := Config{Workers: 9, Locks: 3, Iterations: 4, Mode: ModeFix, TTL: 10 * time.Second, Work: time.Millisecond,
			Key: "lock:notify-many", Retry: RetryNotify}
		s, err := Run(context.Background(), r.dial, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, s, cfg)
		if s.Sections != 36 || s.Elapsed >= cfg.TTL/2 {
			t.Errorf("want 36 sections, none waiting out a TTL; got %v\n%s", s.Elapsed, s.Table())
		}
		for i := 1; i <= 3; i++ {
			if got := channelFor(fmt.Sprintf("lock:notify-many:%d", i)); got != fmt.Sprintf("lock:notify-many:%d:released", i) {
				t.Errorf("lock %d's channel: %s", i, got)
			}
		}
	})
}

// TestNotifyWaitsForTheTTLLeft: a lock that expires while held is not
// announced, and a waiter tries again when the PTTL its holder had left
// runs out, not a whole TTL after it began to wait. Two workers, two
// cycles each of 150ms under a 100ms TTL: w2 takes over at 100ms, w1
// (done at 150ms) at 200ms, when w2's lock expires, then w2 at 300ms, and
// w2's last section ends at 450ms; waiting whole TTLs it would end at
// 500ms. In a synctest bubble, whose clock moves only when every
// goroutine waits, on the embedded Redis's in-memory connections.
func TestNotifyWaitsForTheTTLLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		target := session.Target{Network: "tcp", Addr: "127.0.0.1:0", Embedded: true, InProcess: redistest.InProcess(t)}
		dial := func(w int) Conn { return session.NewConn(target, fmt.Sprintf("w%d", w)) }
		cfg := Config{Workers: 2, Iterations: 2, Mode: ModeFix, TTL: 100 * time.Millisecond, Work: 150 * time.Millisecond,
			Key: "lock:ttl-left", Retry: RetryNotify}
		s, err := Run(context.Background(), dial, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, s, cfg)
		if s.Sections != 4 || s.ExpiredWhileHeld != 4 {
			t.Errorf("want 4 sections, each lock expired while held, got\n%s", s.Table())
		}
		if s.Elapsed < 450*time.Millisecond || s.Elapsed >= 470*time.Millisecond {
			t.Errorf("the run took %v: want 450ms and a few, each waiter trying again as its holder's lock expired", s.Elapsed)
		}
	})
}
