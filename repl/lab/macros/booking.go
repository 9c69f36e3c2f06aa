package macros

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/backoff"
	"github.com/locklab/locklab/repl/lang/flags"
)

// booking is the check-then-act both booking macros share.
type booking struct {
	slot  string
	seats int64
	work  time.Duration
	// sleep spends the work; a watchdog keeps the lock alive meanwhile.
	sleep func(ctx context.Context, d time.Duration) error
}

// bookingOf is the booking the flags --slot, --seats and --work describe.
func bookingOf(p *flags.Parsed) booking {
	return booking{slot: p.String("slot"), seats: p.Int("seats"), work: p.Duration("work")}
}

// book is book_no_lock.sh: count, and if there is room, work, then book.
func (b booking) book(ctx context.Context, env Env, session, bidder string) error {
	env.Seats(b.slot, b.seats)
	count, err := env.Query(ctx, session, "LLEN", b.slot)
	if err := failed(env, session, bidder, count, err); err != nil {
		return err
	}
	if count.Int >= b.seats {
		env.Say(session, "%s: rejected (saw count=%d)", bidder, count.Int)
		return nil
	}
	env.Say(session, "%s: checked %s: count=%d of %d seat(s), room left; booking after %s of work", bidder, b.slot, count.Int, b.seats, b.work.String())
	sleep := env.Sleep
	if b.sleep != nil {
		sleep = b.sleep
	}
	if err := sleep(ctx, b.work); err != nil {
		return err
	}
	pushed, err := env.Query(ctx, session, "RPUSH", b.slot, bidder)
	if err := failed(env, session, bidder, pushed, err); err != nil {
		return err
	}
	env.Say(session, "%s: booked (saw count=%d)", bidder, count.Int)
	return nil
}

// ErrReply is a macro stopped by an error reply from Redis (already
// printed): its status is 1.
var ErrReply = errors.New("redis answered with an error")

// failed stops a macro on a connection error or an error reply, saying
// which command Redis refused.
func failed(env Env, session, who string, r resp.Reply, err error) error {
	if err != nil {
		return err
	}
	if r.IsError() || r.Kind == resp.Invalid {
		env.Say(session, "%s: stopped: Redis answered %s", who, r.Str)
		return ErrReply
	}
	return nil
}

func book(ctx context.Context, env Env, p *flags.Parsed) error {
	bidder := p.Args[0]
	return bookingOf(p).book(ctx, env, bidderSession(env, bidder), bidder)
}

// bookLocked is book_with_lock.sh: the lock first, then the booking, then
// the release the flag names (the lesson's GET, compare, DEL by default).
func bookLocked(ctx context.Context, env Env, p *flags.Parsed) error {
	b, lock, ttl := bookingOf(p), p.String("lock"), p.Duration("ttl")
	bidder, token := p.Args[0], p.Args[1]
	session := bidderSession(env, bidder)
	got, err := acquire(ctx, env, session, lock, token, ttl, p.Duration("wait"))
	if err != nil || !got {
		if err == nil {
			env.Say(session, "%s: could not acquire lock, rejected immediately", bidder)
		}
		return err
	}
	if p.Bool("watchdog") {
		b.sleep = func(ctx context.Context, d time.Duration) error {
			return keepAlive(ctx, env, session, lock, token, ttl, d)
		}
	}
	if err := b.book(ctx, env, session, bidder); err != nil {
		return err
	}
	return releaseLock(ctx, env, session, p.String("release"), lock, token)
}

// acquire is SET lock token NX PX ttl, tried again for up to wait after
// a wait that backs off with jitter (waitBackoff).
func acquire(ctx context.Context, env Env, session, lock, token string, ttl, wait time.Duration) (bool, error) {
	deadline := env.Now().Add(wait)
	delays := retryDelays(session, lock, token)
	for tries := 1; ; tries++ {
		r, err := env.Query(ctx, session, "SET", lock, token, "NX", "PX", millis(ttl))
		if err := failed(env, session, session, r, err); err != nil {
			return false, err
		}
		if r.Kind == resp.Status && r.Str == "OK" {
			return true, nil
		}
		if env.Now().After(deadline) {
			return false, nil
		}
		if err := env.Sleep(ctx, waitBackoff.Delay(tries, delays)); err != nil {
			return false, err
		}
	}
}

// waitBackoff is --wait's pause between two attempts, as the lock
// libraries wait (package backoff): at random below 2ms, then below a
// ceiling that doubles up to 50ms. A crowd of bidders waiting for one lock
// spreads out instead of trying all together every few milliseconds.
var waitBackoff = backoff.Backoff{Base: 2 * time.Millisecond, Cap: 50 * time.Millisecond}

// retryDelays is the random source of a bidder's waits: seeded by who
// waits for what, so that a run (and explore's replay of it, in its
// virtual time) waits the same again, and two bidders differently.
func retryDelays(session, lock, token string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(session + "\x00" + lock + "\x00" + token))
	return rand.New(rand.NewPCG(h.Sum64(), 0))
}

// releaseLock releases as the flag says: get-del (the lesson's GET,
// compare, DEL), eval (the atomic compare-and-delete) or blind (a plain
// DEL, the bug).
func releaseLock(ctx context.Context, env Env, session, how, lock, token string) error {
	switch how {
	case "eval":
		_, err := evalRelease(ctx, env, session, lock, token, false)
		return err
	case "blind":
		_, err := env.Query(ctx, session, "DEL", lock)
		return err
	}
	owner, err := env.Query(ctx, session, "GET", lock)
	if err != nil || owner.Kind != resp.Bulk || owner.Str != token {
		return err
	}
	_, err = env.Query(ctx, session, "DEL", lock)
	return err
}

// keepAlive works for d while extending the lock to ttl every ttl/3, as a
// lock library's watchdog does; it stops extending once the lock is not
// ours any more.
func keepAlive(ctx context.Context, env Env, session, lock, token string, ttl, d time.Duration) error {
	step := max(ttl/3, time.Millisecond)
	for end := env.Now().Add(d); env.Now().Before(end); {
		if err := env.Sleep(ctx, min(step, end.Sub(env.Now()))); err != nil {
			return err
		}
		if env.Now().Before(end) {
			r, err := extend(ctx, env, session, lock, token, ttl, false)
			if err != nil || (r.Kind == resp.Int && r.Int == 0) {
				return err // lost: working on without it is the bug the notes show
			}
		}
	}
	return nil
}
