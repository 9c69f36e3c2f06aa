package session

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/resp"
)

// Conn is one dedicated connection to a target. It dials lazily, redials
// after the server went away, and keeps the database chosen with SELECT
// and the credentials given with AUTH across those redials, as redis-cli
// does.
type Conn struct {
	target Target
	name   string // CLIENT SETNAME, when not empty

	mu   sync.Mutex
	link *link
	db   int
	user string
	pass string

	waiting atomic.Int32 // callers queued for the link behind another's command
}

// link is one go-redis connection: a client whose pool holds one
// connection, and that connection taken out of the pool for good
// (redis.Conn), so that no command pays for the pool's health check (a
// system call each time a pooled connection is taken). A broken link is
// dropped whole, and the next command dials a new one.
//
// A redis.Conn serves one goroutine at a time: busy queues the callers,
// as the pool of one did. close closes the client only, whose pool closes
// the socket and so cuts a command in flight; closing the redis.Conn
// itself while a command finishes on it would race with that command.
type link struct {
	client  *redis.Client
	conn    *redis.Conn
	busy    sync.Mutex
	dropped atomic.Bool
}

func (l *link) close() {
	l.dropped.Store(true)
	l.client.Close()
}

// exec runs send on the current link when no other caller is on it, and
// returns the link it used; a cancelled ctx drops the link, which cuts
// send (or the command ahead of it) short. A caller that waited for a
// link another caller's cut dropped has sent nothing yet: it takes the
// next link rather than fail.
func (c *Conn) exec(ctx context.Context, send func(conn *redis.Conn)) *link {
	for {
		l := c.current()
		stop := context.AfterFunc(ctx, func() { c.drop(l) })
		c.waiting.Add(1)
		l.busy.Lock()
		c.waiting.Add(-1)
		if l.dropped.Load() && ctx.Err() == nil {
			l.busy.Unlock()
			stop()
			continue
		}
		send(l.conn)
		l.busy.Unlock()
		stop()
		return l
	}
}

// NewConn makes a connection to t that dials on first use. A non-empty
// name is set on the server with CLIENT SETNAME.
func NewConn(t Target, name string) *Conn {
	return &Conn{target: t, name: name, db: t.DB, user: t.User, pass: t.Password}
}

// Server is the server the connection talks to (its network and address),
// which never changes: a session that moves gets a new Conn.
func (c *Conn) Server() string { return c.target.Network + ":" + c.target.Addr }

// Do sends args as one command and returns the parsed reply. A Redis error
// reply is a reply, not an error; the error is for a connection that could
// not be made or broke, or a ctx cancelled while waiting (the connection
// is then dropped, so a blocking command cannot answer a later caller).
func (c *Conn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	cmd := redis.NewRawCmd(ctx, toAny(args)...)
	l := c.exec(ctx, func(conn *redis.Conn) { conn.Process(context.WithoutCancel(ctx), cmd) })
	raw, err := cmd.Result()
	if ctx.Err() != nil {
		return resp.Reply{}, ctx.Err()
	}
	if err != nil && len(raw) == 0 {
		c.drop(l)
		return resp.Reply{}, err
	}
	reply, _, perr := resp.Parse(raw)
	if perr != nil {
		c.drop(l)
		return resp.Reply{}, perr
	}
	c.remember(args, reply)
	return reply, nil
}

// Ping dials if needed and checks the server answers.
func (c *Conn) Ping(ctx context.Context) error {
	var err error
	l := c.exec(ctx, func(conn *redis.Conn) { err = conn.Ping(ctx).Err() })
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil && !IsServerError(err) {
		c.drop(l)
		return err
	}
	return nil // a Redis error (NOAUTH, say) still means we are connected
}

// DoBatch sends several commands in one pipeline on the connection and
// returns their replies in order: the same as sending them one by one,
// minus the round trips.
func (c *Conn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	cmds := make([]*redis.RawCmd, len(batch))
	l := c.exec(ctx, func(conn *redis.Conn) {
		pipe := conn.Pipeline()
		for i, args := range batch {
			cmds[i] = redis.NewRawCmd(ctx, toAny(args)...)
			pipe.Process(ctx, cmds[i])
		}
		pipe.Exec(context.WithoutCancel(ctx)) // per-command results below; Redis errors are data
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	replies := make([]resp.Reply, 0, len(batch))
	for i, cmd := range cmds {
		raw, err := cmd.Result()
		if err != nil && len(raw) == 0 {
			c.drop(l)
			return replies, err
		}
		reply, _, err := resp.Parse(raw)
		if err != nil {
			c.drop(l)
			return replies, err
		}
		c.remember(batch[i], reply)
		replies = append(replies, reply)
	}
	return replies, nil
}

// DB is the database the connection is on.
func (c *Conn) DB() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.db
}

func (c *Conn) credentials() (user, pass string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.user, c.pass
}

// Close closes the connection.
func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.link != nil {
		c.link.close()
		c.link = nil
	}
}

func (c *Conn) current() *link {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.link == nil {
		client := redis.NewClient(c.options())
		c.link = &link{client: client, conn: client.Conn()}
	}
	return c.link
}

// drop closes l, which cuts a command in flight on it, and forgets it if
// it is still the current link.
func (c *Conn) drop(l *link) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.link == l {
		c.link = nil
	}
	l.close()
}

func (c *Conn) options() *redis.Options {
	protocol := 2
	if c.target.RESP3 {
		protocol = 3
	}
	return &redis.Options{
		Network: c.target.Network, Addr: c.target.Addr, Dialer: dialer(c.target.TLS),
		Username: c.user, Password: c.pass, DB: c.db, ClientName: c.name,
		Protocol: protocol, DisableIdentity: true,
		PoolSize: 1, MaxRetries: -1, MinIdleConns: 0,
		PipelinePoolSize: -1, // pipelines must use the session's one connection
		DialTimeout:      dialTimeout,
		DialerRetries:    1, // one attempt, as redis-cli makes: a server that is down says so at once
		// No socket deadlines at all (-2: not even a cleared one before
		// each read and write, which costs a timer update each time): a
		// blocking command may wait for ever, and Ctrl-C cuts any command
		// by closing the connection.
		ReadTimeout: -2, WriteTimeout: -2,
	}
}

// dialTimeout bounds a dial and a TLS handshake.
const dialTimeout = 5 * time.Second

// dialer dials within dialTimeout, and with TLS, handshakes within it too:
// go-redis's own TLS dial has no bound of its own on the handshake, so
// `--tls` against a plain-text server (which waits for a line the
// ClientHello never ends) hung for ever, deaf to Ctrl-C.
func dialer(config *tls.Config) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, dialTimeout)
		defer cancel()
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil || config == nil {
			return conn, err
		}
		tc := tls.Client(conn, config)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS handshake with %s: %w (is it a TLS port?)", addr, err)
		}
		return tc, nil
	}
}

// remember keeps what a redial must restore: the database after a
// successful SELECT, the credentials after a successful AUTH.
func (c *Conn) remember(args []string, reply resp.Reply) {
	if reply.Kind != resp.Status || reply.Str != "OK" || len(args) < 2 {
		return // also skips a QUEUED SELECT inside MULTI
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch strings.ToUpper(args[0]) {
	case "SELECT":
		if n, err := strconv.Atoi(args[1]); err == nil {
			c.db = n
		}
	case "AUTH":
		c.user, c.pass = "", args[1]
		if len(args) == 3 {
			c.user, c.pass = args[1], args[2]
		}
	}
}

func toAny(args []string) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
	}
	return out
}
