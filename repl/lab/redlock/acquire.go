package redlock

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// Options are an acquisition's: the lock's TTL, the clock drift factor,
// the per-node timeout.
type Options struct {
	TTL     time.Duration
	Drift   float64
	Timeout time.Duration
}

// Defaults: the docs' drift factor; a per-node timeout small next to the
// 10 s TTL, yet wide enough for a busy two-core machine under -race (200
// ms timed out once there). The docs' 5-50 ms suits servers on their own
// cores: --timeout sets it.
var Defaults = Options{TTL: 10 * time.Second, Drift: 0.01, Timeout: time.Second}

// Answer is one node's answer to one command: its reply, or why there was
// none (the node is down, the timeout passed, the connection broke).
type Answer struct {
	Node       string
	Args       []string
	Reply      resp.Reply
	Err        error
	Start, End time.Time // when it was sent, and answered (or given up)
}

// OK reports whether the node said OK.
func (a Answer) OK() bool { return a.Err == nil && a.Reply.Str == "OK" }

// Text is the answer as a line shows it.
func (a Answer) Text() string {
	if a.Err != nil {
		return "no answer: " + a.Err.Error()
	}
	return strings.TrimSuffix(resp.FormatTTY(a.Reply), "\n")
}

// Attempt is one run of the algorithm: what every node answered, and what
// the client concluded.
type Attempt struct {
	Lab, Of            int // the lab's Gen, and its number of nodes
	Holder, Key, Token string
	Opts               Options
	Set, Released      []Answer
	Start              time.Time // the client's clock read before the SETs
	Elapsed, Validity  time.Duration
	Granted            bool
}

// Nodes are the nodes that said OK to the SET.
func (a *Attempt) Nodes() []string {
	var out []string
	for _, ans := range a.Set {
		if ans.OK() {
			out = append(out, ans.Node)
		}
	}
	return out
}

// Acquire runs Redlock as the Redis docs give it: read the time, SET key
// token NX PX ttl on every node in parallel (each within the timeout),
// count the OKs; the lock is held on a majority with validity = ttl -
// elapsed - drift (drift: ttl*factor + 2 ms) above zero. Otherwise it
// releases on every node. Its Quorum is for the run's record to judge.
func (l *Lab) Acquire(ctx context.Context, c clock.Clock, holder, key, token string, o Options) (*Attempt, error) {
	return l.acquire(ctx, c, l.ClientNow(), holder, key, token, o)
}

// Nodes are the names of the nodes up; an error when none is.
func (l *Lab) Nodes() ([]string, error) {
	ts, err := l.targets()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	return names, err
}

// acquire is Acquire through client.
func (l *Lab) acquire(ctx context.Context, c clock.Clock, client Client, holder, key, token string, o Options) (*Attempt, error) {
	ts, err := l.targets()
	if err != nil {
		return nil, err
	}
	a := &Attempt{Lab: l.Gen(), Of: len(ts), Holder: holder, Key: key, Token: token, Opts: o}
	l.setKey(key)
	if client == Redsync {
		return a, acquireRedsync(ctx, c, ts, a)
	}
	v := l.via(c, holder, o.Timeout)
	start := c.Now()
	a.Start = start
	set := []string{"SET", key, token, "NX", "PX", strconv.FormatInt(o.TTL.Milliseconds(), 10)}
	a.Set = l.everywhere(ctx, v, ts, set)
	a.Elapsed = c.Now().Sub(start)
	drift := time.Duration(float64(o.TTL)*o.Drift) + 2*time.Millisecond
	a.Validity = o.TTL - a.Elapsed - drift
	a.Granted = len(a.Nodes()) >= len(ts)/2+1 && a.Validity > 0
	if !a.Granted {
		a.Released = l.everywhere(ctx, v, ts, releaseArgs(key, token))
	}
	return a, ctx.Err()
}

// via is how holder's commands reach the nodes: on connections named
// after it, each within timeout, timed on c, through the lab's gate if it
// has one.
func (l *Lab) via(c clock.Clock, holder string, timeout time.Duration) via {
	l.mu.Lock()
	defer l.mu.Unlock()
	return via{clock: c, gate: l.gate, session: holder, conn: holder, timeout: timeout}
}

// releaseArgs is the compare-and-delete, scripts.Release: it deletes the
// key only when it still holds the token.
func releaseArgs(key, token string) []string {
	return scripts.Release.Eval([]string{key}, token)
}

// Release is the compare-and-delete on every node: each node's answer,
// and the release as the run's record reads it (the holder's grant ended
// when it was sent).
func (l *Lab) Release(ctx context.Context, c clock.Clock, holder, key, token string, o Options) ([]Answer, quorum.Release, error) {
	return l.release(ctx, c, l.ClientNow(), holder, key, token, o)
}

// release is Release through client.
func (l *Lab) release(ctx context.Context, c clock.Clock, client Client, holder, key, token string, o Options) ([]Answer, quorum.Release, error) {
	ts, err := l.targets()
	if err != nil {
		return nil, quorum.Release{}, err
	}
	rel := quorum.Release{Lab: l.Gen(), Session: holder, Key: key, Token: token, At: c.Now()}
	var out []Answer
	if client == Redsync {
		out = releaseRedsync(ctx, ts, key, token, o)
	} else {
		v := l.via(c, holder, o.Timeout)
		out = l.everywhere(ctx, v, ts, releaseArgs(key, token))
		if v.gate != nil {
			rel.At = sentAt(out, rel.At)
		}
	}
	rel.Steps = steps(out)
	return out, rel, ctx.Err()
}

// sentAt is when the first of answers went out, one after another in
// their turns (oneByOne), or at when none did (every node down). On
// explore's clock (a nanosecond per step within an instant) a release
// read before its first turn would be at the very time the holder's last
// SET was answered, which the checker reads as before the grant began;
// the first release command is sent after it, as on the wall clock.
func sentAt(answers []Answer, at time.Time) time.Time {
	for _, a := range answers {
		if a.Err != errDown {
			return a.Start
		}
	}
	return at
}

// setKey keeps the key last acquired, for status.
func (l *Lab) setKey(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.key = key
}
