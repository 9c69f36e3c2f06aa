package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/backoff"
)

// The retry policies, as --retry spells them: what a worker does after a
// SET NX that found the lock held.
const (
	RetryFixed   = "fixed"   // try again in 1-1.5ms, however many wait: the retry storm
	RetryBackoff = "backoff" // exponential backoff with full jitter, capped (package backoff)
	RetryNotify  = "notify"  // wait for the release, which the releaser PUBLISHes (Redisson's way)
)

// RetryPolicies lists the policies in the lesson's order.
var RetryPolicies = []string{RetryFixed, RetryBackoff, RetryNotify}

// retryDelay is fixed's pause between two failed attempts: about 1ms,
// plus up to retryJitter so the workers do not move in lockstep. However
// many workers wait, each tries again every millisecond or so: with 1,000
// of them the attempts that fail flood the server, and the holders' own
// commands wait behind them.
const (
	retryDelay  = time.Millisecond
	retryJitter = 500 * time.Microsecond
)

// retryBackoff is backoff's waits: the first at most 1ms, the n-th at
// most 2^(n-1)ms, up to 64ms, each drawn at random below that.
var retryBackoff = backoff.Backoff{Base: time.Millisecond, Cap: 64 * time.Millisecond}

// waitToRetry waits after the n-th failed attempt of an acquisition (n
// from 1), as the run's policy says; it reports whether the run goes on.
// notify's first failure does not wait: the next attempt sets the waiting
// mark first (see attempt), and only a failure after it waits for the
// release to be announced.
func (w *worker) waitToRetry(n int) bool {
	switch w.cfg.Retry {
	case RetryBackoff:
		return w.sleep(retryBackoff.Delay(n, nil))
	case RetryNotify:
		return n == 1 && w.runCtx.Err() == nil || n > 1 && w.awaitRelease()
	}
	return w.sleep(retryDelay + rand.N(retryJitter))
}

// awaitRelease waits until a release of the worker's lock is announced
// and no other waiter took the news, or until the holder's lock expires
// (a lock that expires is not announced): for the PTTL it had left at the
// failed attempt, or the TTL when it had none (it went in between, or was
// taken with no TTL). It reports whether the run goes on.
func (w *worker) awaitRelease() bool {
	wait := w.cfg.TTL
	if w.heldFor > 0 {
		wait = min(w.heldFor+time.Millisecond, w.cfg.TTL)
	}
	w.timer.Reset(wait)
	select {
	case <-w.releases.released[w.lock]:
		w.timer.Stop()
		return true
	case <-w.timer.C:
		return true
	case <-w.runCtx.Done():
		w.timer.Stop()
		return false
	}
}

// channelFor is the pub/sub channel a lock's releases are announced on
// (a channel, not a key: nothing to delete).
func channelFor(lock string) string { return lock + ":released" }

// releases is --retry notify's subscription: the control connection
// subscribed to the locks' channels, passing each announced release to
// one waiter of its lock. A lock has one slot for news that no waiter
// took yet, as Redisson's lock entry releases one permit of its
// semaphore per unlock message: one waiter wakes, not the crowd.
type releases struct {
	index    map[string]int  // a channel's lock
	released []chan struct{} // by lock: a release announced and not yet taken
	ready    chan error      // the server confirmed the subscriptions (nil), or did not
	done     chan error      // the subscription's end: nil when stop ended it
	end, cut context.CancelFunc
}

// listen subscribes ctl to the locks' channels and returns once the
// server confirmed it, or with an error that says why not (a server that
// refuses SUBSCRIBE): then nothing is listening. Until stop, each release
// announced goes to one waiter of its lock. ctx's end cuts the
// subscription.
func listen(ctx context.Context, ctl Conn, locks []keys) (*releases, error) {
	s := &releases{index: make(map[string]int, len(locks)), released: make([]chan struct{}, len(locks)),
		ready: make(chan error, 1), done: make(chan error, 1)}
	subscribe := []string{"SUBSCRIBE"}
	for i, k := range locks {
		s.index[channelFor(k.lock)] = i
		s.released[i] = make(chan struct{}, 1)
		subscribe = append(subscribe, channelFor(k.lock))
	}
	var end, cut context.Context
	end, s.end = context.WithCancel(context.WithoutCancel(ctx))
	cut, s.cut = context.WithCancel(ctx)
	go s.run(cut, end, ctl, subscribe)
	if err := <-s.ready; err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// run holds the subscription until end (cut ends it at once): it sends
// one value on ready, then the subscription's end on done.
func (s *releases) run(cut, end context.Context, ctl Conn, subscribe []string) {
	confirmed, signalled := 0, false
	signal := func(err error) {
		if !signalled {
			signalled = true
			s.ready <- err
		}
	}
	err := ctl.Stream(cut, end, subscribe, func(m resp.Reply) {
		switch kind, channel := pushed(m); {
		case m.Kind == resp.Error:
			signal(fmt.Errorf("--retry notify: the server refused SUBSCRIBE (%s): try --retry backoff", m.Str))
		case kind == "subscribe":
			if confirmed++; confirmed == len(s.index) {
				signal(nil)
			}
		case kind == "message":
			s.announce(channel)
		}
	})
	switch {
	case end.Err() != nil:
		err = nil // stopped: how the connection closed after does not matter
	case err == nil:
		err = errors.New("the server ended the subscription")
	}
	if err != nil {
		signal(fmt.Errorf("--retry notify: SUBSCRIBE: %w", err))
	}
	s.done <- err
}

// announce passes a release of the channel's lock to one waiter: into the
// lock's slot, unless news is already there (the waiter that takes it
// tries after this release too).
func (s *releases) announce(channel string) {
	if i, ok := s.index[channel]; ok {
		select {
		case s.released[i] <- struct{}{}:
		default:
		}
	}
}

// stop ends the subscription, within endWait on a server that does not
// answer, and answers how it ended: nil when stopped, else the error that
// had cut it short (the waiters then fell back on the TTL).
func (s *releases) stop() error {
	s.end()
	t := time.AfterFunc(endWait, s.cut)
	defer t.Stop()
	defer s.cut()
	return <-s.done
}

// pushed reads a message of a subscribed connection: its kind
// ("subscribe", "message") and channel; "" for anything else.
func pushed(m resp.Reply) (kind, channel string) {
	if (m.Kind != resp.Array && m.Kind != resp.Push) || len(m.Elems) < 2 {
		return "", ""
	}
	return m.Elems[0].Str, m.Elems[1].Str
}
