package macros

import (
	"context"
	"strconv"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/scripts"
	"github.com/locklab/locklab/repl/lang/duration"
	"github.com/locklab/locklab/repl/lang/flags"
)

func extendMacro(ctx context.Context, env Env, p *flags.Parsed) error {
	ttl, err := ttlArg(p.Args[2])
	if err != nil || ttl < time.Millisecond {
		return p.Spec.Errorf("TTL needs milliseconds (as PEXPIRE takes them) or a duration, at least 1ms: 2000 or 2s, got %q", p.Args[2])
	}
	_, err = extend(ctx, env, env.Session(), p.Args[0], p.Args[1], ttl, true)
	return err
}

func extend(ctx context.Context, env Env, session, key, token string, ttl time.Duration, print bool) (resp.Reply, error) {
	return evalScript(ctx, env, session, scripts.Extend, []string{key}, []string{token, millis(ttl)}, print)
}

// fencedBook takes the lock, gets a fencing token from INCR KEY:fence,
// works (pausing like a stop-the-world GC if asked), then writes through
// the slot's fencing check (scripts.FencedBook, which the annotator
// knows by its SHA1) and releases with compare-and-delete.
func fencedBook(ctx context.Context, env Env, p *flags.Parsed) error {
	lock, slot, seats := p.String("lock"), p.String("slot"), p.Int("seats")
	bidder := p.Args[0]
	session := bidderSession(env, bidder)
	env.Seats(slot, seats)
	got, err := acquire(ctx, env, session, lock, bidder+"-token", p.Duration("ttl"), p.Duration("wait"))
	if err != nil || !got {
		if err == nil {
			env.Say(session, "%s: could not acquire lock, rejected immediately", bidder)
		}
		return err
	}
	fence, err := env.Query(ctx, session, "INCR", lock+":fence")
	if err := failed(env, session, bidder, fence, err); err != nil {
		return err
	}
	env.Say(session, "%s: holds %s with fencing token %d", bidder, lock, fence.Int)
	if err := pauseWork(ctx, env, session, bidder, p.Duration("work"), p.Duration("pause")); err != nil {
		return err
	}
	if err := fencedWrite(ctx, env, session, bidder, slot, lock, fence.Int, seats); err != nil {
		return err
	}
	_, err = evalRelease(ctx, env, session, lock, bidder+"-token", false)
	return err
}

// fencedWriteMacro is the write of fenced-book alone, with a fencing
// token the caller got elsewhere (a Redlock holder's, say): the slot's
// fencing check books, or refuses a token older than the newest it
// accepted. It takes no lock and releases none.
func fencedWriteMacro(ctx context.Context, env Env, p *flags.Parsed) error {
	bidder := p.Args[0]
	token, err := strconv.ParseInt(p.Args[1], 10, 64)
	if err != nil {
		return p.Spec.Errorf("TOKEN is a number (a fencing token, e.g. from INCR), got %q", p.Args[1])
	}
	// (The annotator judges the write by its reply: no seats to tell it.)
	return fencedWrite(ctx, env, bidderSession(env, bidder), bidder, p.String("slot"), p.String("lock"), token, p.Int("seats"))
}

func pauseWork(ctx context.Context, env Env, session, bidder string, work, pause time.Duration) error {
	if err := env.Sleep(ctx, work/2); err != nil {
		return err
	}
	if pause > 0 {
		env.Say(session, "%s: paused for %s (a stop-the-world GC pause)", bidder, pause)
		if err := env.Sleep(ctx, pause); err != nil {
			return err
		}
	}
	return env.Sleep(ctx, work-work/2)
}

func fencedWrite(ctx context.Context, env Env, session, bidder, slot, lock string, token, seats int64) error {
	keys := []string{slot, lock + ":fence:last"}
	r, err := evalScript(ctx, env, session, scripts.FencedBook, keys, []string{itoa(token), bidder, itoa(seats)}, false)
	if err := failed(env, session, bidder, r, err); err != nil {
		return err
	}
	switch r.Int {
	case 1:
		env.Say(session, "%s: booked with fencing token %d", bidder, token)
	case 0:
		env.Say(session, "%s: rejected: %s is full", bidder, slot)
	default:
		env.Say(session, "%s: write refused: fencing token %d is older than one the slot has already seen (a newer holder wrote first)", bidder, token)
	}
	return nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// ttlArg is extend's TTL: milliseconds when bare, as PEXPIRE takes them
// (the command it stands for), or a duration with its unit.
func ttlArg(s string) (time.Duration, error) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms <= duration.Max.Milliseconds() {
		return time.Duration(ms) * time.Millisecond, nil
	}
	return duration.Span(s)
}
