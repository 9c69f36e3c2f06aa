package redlock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/clock"
)

// Client is what runs the algorithm: locklab's own steps, or the
// go-redsync/redsync library (v4, on its go-redis v9 pool).
type Client int

const (
	Locklab Client = iota
	Redsync
)

// Use makes the lab's acquisitions and releases run through client.
func (l *Lab) Use(client Client) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.client = client
}

func (l *Lab) ClientNow() Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.client
}

// trace keeps every command the library sent, node by node, with its
// reply, as go-redis hooks saw them.
type trace struct {
	mu      sync.Mutex
	byNode  map[string][]Answer
	lastSet time.Time // when the last SET's reply came
}

// hook is a go-redis hook that adds each command of one node to a trace.
type hook struct {
	t    *trace
	node string
}

func (h hook) DialHook(next goredislib.DialHook) goredislib.DialHook { return next }

func (h hook) ProcessPipelineHook(next goredislib.ProcessPipelineHook) goredislib.ProcessPipelineHook {
	return next
}

func (h hook) ProcessHook(next goredislib.ProcessHook) goredislib.ProcessHook {
	return func(ctx context.Context, cmd goredislib.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		if cmd.Name() == "hello" {
			return err // go-redis's handshake on a new connection, not the algorithm's
		}
		a := answerOf(h.node, cmd, err)
		a.Start, a.End = start, time.Now()
		h.t.mu.Lock()
		defer h.t.mu.Unlock()
		h.t.byNode[h.node] = append(h.t.byNode[h.node], a)
		if cmd.Name() == "set" {
			h.t.lastSet = time.Now()
		}
		return err
	}
}

// answerOf is a command as go-redis sent it, and the reply as go-redis
// parsed it, told back in RESP's terms (SET ... NX: OK or nil).
func answerOf(node string, cmd goredislib.Cmder, err error) Answer {
	a := Answer{Node: node}
	for _, arg := range cmd.Args() {
		a.Args = append(a.Args, fmt.Sprint(arg))
	}
	var redisErr goredislib.Error
	switch {
	case errors.Is(err, goredislib.Nil):
		a.Reply = resp.Reply{Kind: resp.Nil}
	case errors.As(err, &redisErr):
		a.Reply = resp.Reply{Kind: resp.Error, Str: err.Error()}
	case err != nil:
		a.Err = err
	default:
		a.Reply = replyOf(cmd)
	}
	return a
}

// replyOf is the reply of a command that succeeded: SET ... NX's OK or
// nil (go-redis gives true or false), or a script's integer.
func replyOf(cmd goredislib.Cmder) resp.Reply {
	switch c := cmd.(type) {
	case *goredislib.BoolCmd:
		if c.Val() {
			return resp.Reply{Kind: resp.Status, Str: "OK"}
		}
		return resp.Reply{Kind: resp.Nil}
	case *goredislib.Cmd:
		if n, err := c.Int64(); err == nil {
			return resp.Reply{Kind: resp.Int, Int: n}
		}
	}
	return resp.Reply{Kind: resp.Status, Str: fmt.Sprint(cmd)}
}

// pools are one redsync pool per node, in node order, each on a go-redis
// client of its own whose commands go to tr. A node that is down fails
// at dial, as the hand-written steps say: node down. close closes the
// clients. Maintenance notifications are off: go-redis would otherwise
// resolve each client's Addr (a name, node-A, not a host) through DNS
// when the client is built, to guess a cloud endpoint's type: up to 2 s
// a client, five per attempt, which made load --redlock --client redsync
// crawl (RESP2 gets no such notifications anyway).
func pools(ts []target, tr *trace) (out []rsredis.Pool, close func()) {
	var clients []*goredislib.Client
	for _, t := range ts {
		dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
			if t.addr == "" {
				return nil, errDown
			}
			var d net.Dialer
			return d.DialContext(ctx, network, t.addr)
		}
		c := goredislib.NewClient(&goredislib.Options{Addr: "node-" + t.name, Dialer: dial, Protocol: 2,
			DisableIdentity: true, MaxRetries: -1, DialerRetries: 1, ContextTimeoutEnabled: true,
			MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}})
		c.AddHook(hook{t: tr, node: t.name})
		clients = append(clients, c)
		out = append(out, goredis.NewPool(c))
	}
	return out, func() {
		for _, c := range clients {
			c.Close()
		}
	}
}

// mutex is redsync's mutex for an acquisition or a release with o: one
// try (as the hand-written steps), its timeout the per-node timeout.
func mutex(ps []rsredis.Pool, key, token string, o Options) *redsync.Mutex {
	return redsync.New(ps...).NewMutex(key, redsync.WithExpiry(o.TTL), redsync.WithTries(1),
		redsync.WithDriftFactor(o.Drift), redsync.WithTimeoutFactor(float64(o.Timeout)/float64(o.TTL)),
		redsync.WithGenValueFunc(func() (string, error) { return token, nil }), redsync.WithValue(token))
}

// acquireRedsync is Acquire through redsync's Mutex.LockContext: the
// commands it sent are the attempt's answers; it is granted when redsync
// says so, valid until redsync's Until.
func acquireRedsync(ctx context.Context, c clock.Clock, ts []target, a *Attempt) error {
	tr := &trace{byNode: map[string][]Answer{}}
	ps, closeAll := pools(ts, tr)
	defer closeAll()
	m := mutex(ps, a.Key, a.Token, a.Opts)
	start := c.Now()
	a.Start = start
	err := m.LockContext(ctx)
	a.Granted = err == nil
	a.Set, a.Released = tr.split(ts)
	a.Elapsed = c.Now().Sub(start)
	if !tr.lastSet.IsZero() {
		a.Elapsed = tr.lastSet.Sub(start)
	}
	a.Validity = a.Opts.TTL - a.Elapsed - time.Duration(float64(a.Opts.TTL)*a.Opts.Drift)
	if a.Granted {
		a.Validity = m.Until().Sub(start.Add(a.Elapsed))
	}
	return ctx.Err()
}

// split is the trace's SET commands and its others (the release), each
// in node order.
func (tr *trace) split(ts []target) (set, rest []Answer) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, t := range ts {
		for _, a := range tr.byNode[t.name] {
			if a.Args[0] == "set" {
				set = append(set, a)
			} else {
				rest = append(rest, a)
			}
		}
	}
	return set, rest
}

// releaseRedsync is Release through redsync's Mutex.UnlockContext.
func releaseRedsync(ctx context.Context, ts []target, key, token string, o Options) []Answer {
	tr := &trace{byNode: map[string][]Answer{}}
	ps, closeAll := pools(ts, tr)
	defer closeAll()
	mutex(ps, key, token, o).UnlockContext(ctx)
	_, out := tr.split(ts)
	return out
}
