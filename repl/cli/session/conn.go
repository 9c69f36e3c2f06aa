package session

import (
	"cmp"
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/cli/resp"
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
//
// The link keeps the socket it dialled: a command the server will not
// answer (CLIENT REPLY OFF), and a stream (SUBSCRIBE), are written on it
// directly, as go-redis reads a reply after every command it sends.
// Between commands go-redis holds nothing unread, so the socket is in
// step whoever writes next.
type link struct {
	client   *redis.Client
	conn     *redis.Conn
	busy     sync.Mutex
	dropped  atomic.Bool
	closed   context.Context // done when the link is dropped: cuts its dial
	cut      context.CancelFunc
	embedded bool // the embedded server: it has no CLIENT REPLY

	// The socket the last dial made, and whether its handshake is done:
	// go-redis dials on goroutines of its own (and, after failed dials,
	// retries in the background), so these have locks of their own.
	sockMu sync.Mutex
	socket net.Conn
	ready  atomic.Bool

	// Guarded by busy: what the commands sent so far made of the
	// connection (see link.sending).
	multi   bool   // inside MULTI
	touched bool   // a command sent may have changed the connection's own state (touchesConnection)
	queued  queued // what the transaction queued that changes how EXEC reads
	replies atomic.Uint32
}

func (l *link) close() {
	l.dropped.Store(true)
	l.cut()
	l.client.Close()
}

// exec runs send on the current link when no other caller is on it, and
// returns the link it used; a cancelled ctx drops the link, which cuts
// send (or the command ahead of it) short. A caller that waited for a
// link another caller's cut dropped has sent nothing yet: it takes the
// next link rather than fail.
func (c *Conn) exec(ctx context.Context, send func(l *link)) *link {
	for {
		l := c.current()
		stop := c.dropWhenDone(ctx, l)
		c.waiting.Add(1)
		l.busy.Lock()
		c.waiting.Add(-1)
		if l.dropped.Load() && ctx.Err() == nil {
			l.busy.Unlock()
			stop()
			continue
		}
		send(l)
		l.busy.Unlock()
		stop()
		return l
	}
}

// dropWhenDone drops l when ctx ends, until the returned stop is called;
// stop returns once a drop that began is over, so that a cut whose
// command already finished cannot close the link under the next caller.
func (c *Conn) dropWhenDone(ctx context.Context, l *link) (stop func()) {
	if ctx.Done() == nil {
		return func() {} // never cut
	}
	dropped := make(chan struct{})
	cancel := context.AfterFunc(ctx, func() {
		defer close(dropped)
		c.drop(l)
	})
	return func() {
		if !cancel() {
			<-dropped
		}
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
// A command the server will not answer (CLIENT REPLY OFF or SKIP said so)
// is sent and not waited for: its reply is resp.None.
func (c *Conn) Do(ctx context.Context, args []string) (resp.Reply, error) {
	sending(ctx, args)
	cmd := redis.NewRawCmd(ctx, toAny(args)...)
	var answered bool
	l := c.exec(ctx, func(l *link) { answered = c.process(ctx, l, args, cmd) })
	raw, err := cmd.Result()
	if ctx.Err() != nil {
		return resp.Reply{}, ctx.Err()
	}
	if err != nil && len(raw) == 0 {
		c.drop(l)
		return resp.Reply{}, err
	}
	if !answered {
		return resp.Reply{Kind: resp.None}, nil
	}
	reply, _, perr := resp.Parse(raw)
	if perr != nil {
		c.drop(l)
		return resp.Reply{}, perr
	}
	c.remember(args, reply)
	return reply, nil
}

// process sends cmd on l (busy held) and reads its reply, if the server
// sends one; a command after which the connection can serve no other
// drops it (see link.sending). It says whether a reply was read.
func (c *Conn) process(ctx context.Context, l *link, args []string, cmd *redis.RawCmd) bool {
	answered, last := l.sending(args)
	if answered {
		l.conn.Process(context.WithoutCancel(ctx), cmd)
	} else {
		cmd.SetErr(l.write(ctx, resp.Command(args...)))
	}
	if last {
		c.drop(l) // what the server sends next would be read as a later command's reply
	}
	return answered
}

// Ping dials if needed and checks the server answers. A Redis error to
// the PING (NOAUTH, say) still means we are connected; one to the
// handshake (a wrong password) means no connection could be made.
func (c *Conn) Ping(ctx context.Context) error {
	var err error
	var opened bool
	l := c.exec(ctx, func(l *link) { err, opened = l.conn.Ping(ctx).Err(), l.ready.Load() })
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil && (!IsServerError(err) || !opened) {
		c.drop(l)
		return err
	}
	return nil
}

// DoBatch sends several commands in one pipeline on the connection and
// returns their replies in order: the same as sending them one by one,
// minus the round trips. A batch whose commands do not each get one reply
// (CLIENT REPLY, SUBSCRIBE, replies off) is sent one by one.
func (c *Conn) DoBatch(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	for _, args := range batch {
		sending(ctx, args)
	}
	cmds := make([]*redis.RawCmd, len(batch))
	plain := false
	var failed error // the pipeline's, when none of it went out: the handshake failed (a wrong password)
	l := c.exec(ctx, func(l *link) {
		if plain = l.plain(batch); !plain {
			return
		}
		pipe := l.conn.Pipeline()
		for i, args := range batch {
			cmds[i] = redis.NewRawCmd(ctx, toAny(args)...)
			pipe.Process(ctx, cmds[i])
		}
		_, failed = pipe.Exec(context.WithoutCancel(ctx)) // per-command results below; Redis errors are data
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !plain {
		return c.doFirst(ctx, batch)
	}
	replies := make([]resp.Reply, 0, len(batch))
	for i, cmd := range cmds {
		raw, err := cmd.Result()
		if len(raw) == 0 && err == nil {
			err = failed // go-redis leaves the commands of a pipeline that never went out unset
		}
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

// doFirst sends a batch's first command alone, and the rest as a batch
// again (after a CLIENT REPLY ON, say, they may go in one pipeline).
func (c *Conn) doFirst(ctx context.Context, batch [][]string) ([]resp.Reply, error) {
	first, err := c.Do(ctx, batch[0])
	if err != nil {
		return nil, err
	}
	replies := []resp.Reply{first}
	if len(batch) == 1 {
		return replies, nil
	}
	rest, err := c.DoBatch(ctx, batch[1:])
	return append(replies, rest...), err
}

// Stream sends args, a command after which the server keeps sending
// (see Streams), and passes each reply to each as it comes: the
// command's own, then every message. It holds the connection the while
// (the session's other callers wait, as behind a blocking command), and
// ends when ctx does (at once), when the server closes the connection,
// or at an error reply (the command refused), as redis-cli ends its
// pub/sub and monitor modes. When end is done, it ends once every
// message the server had sent by then is passed on: a PING marks the
// point (see Session.Streams: not with replies off). The connection
// is closed after, so that no message can ever be read as the reply to
// a later command: the next command dials anew, with the same database,
// name and credentials. The error is the connection's, or ctx's.
func (c *Conn) Stream(ctx, end context.Context, args []string, each func(resp.Reply)) error {
	sending(ctx, args)
	var err error
	c.exec(ctx, func(l *link) {
		defer c.drop(l)
		var socket net.Conn
		if socket, err = l.open(ctx); err == nil {
			err = stream(ctx, end, socket, args, each)
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Raw hands f the connection's socket, opened and greeted (database,
// name, credentials, TLS), for a protocol of its own: --pipe writes stdin
// on it as it is. The connection is closed after; the next command dials
// anew. The error is f's, the connection's, or ctx's.
func (c *Conn) Raw(ctx context.Context, f func(net.Conn) error) error {
	var err error
	c.exec(ctx, func(l *link) {
		defer c.drop(l)
		var socket net.Conn
		if socket, err = l.open(ctx); err == nil {
			err = f(socket)
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// stream writes args on socket and passes each reply to each, until the
// socket fails (ctx's end closes it), an error reply comes, or the mark
// end's PING asks for.
func stream(ctx, end context.Context, socket net.Conn, args []string, each func(resp.Reply)) error {
	defer context.AfterFunc(ctx, func() { socket.Close() })()
	if _, err := socket.Write(resp.Command(args...)); err != nil {
		return err
	}
	mark := "locklab-stream-end-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	defer context.AfterFunc(end, func() { socket.Write(resp.Command("PING", mark)) })()
	r := resp.NewReader(socket)
	for {
		reply, _, err := r.Read()
		if err != nil {
			return err
		}
		if isMark(reply, mark) {
			return nil
		}
		if each(reply); reply.IsError() {
			return nil
		}
	}
}

// isMark reports whether r answers PING mark on a subscribed or
// monitoring connection: ["pong", mark] (RESP2 subscribed, and the
// embedded server), or mark. A message is never either: it is a push or
// an array of 3 or more (a monitor line is a status).
func isMark(r resp.Reply, mark string) bool {
	if r.Kind == resp.Array && len(r.Elems) == 2 {
		r = r.Elems[1]
	}
	return r.Kind == resp.Bulk && r.Str == mark
}

// Unanswered reports whether the server will not answer the next
// command (CLIENT REPLY OFF, or SKIP just sent): a middleware must not
// send anything of its own then, as nothing would come back.
func (c *Conn) Unanswered() bool {
	c.mu.Lock()
	l := c.link
	c.mu.Unlock()
	return l != nil && l.mode() != repliesOn
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
		if c.target.Links == nil || !c.target.Links.keep(c, c.link) {
			c.link.close()
		}
		c.link = nil
	}
}

func (c *Conn) current() *link {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.link == nil && c.target.Links != nil {
		c.link = c.target.Links.take(c)
	}
	if c.link == nil {
		c.link = c.newLink()
	}
	return c.link
}

// newLink makes a link that keeps the socket it dials and knows when its
// handshake is done (c.mu held). Dropping the link (Ctrl-C) cuts a dial
// or TLS handshake in progress: go-redis dials with a context that
// Ctrl-C does not end (see link.open).
func (c *Conn) newLink() *link {
	l := &link{embedded: c.target.Embedded}
	l.closed, l.cut = context.WithCancel(context.Background())
	opts := c.options()
	dial := opts.Dialer // ours: bounded, with the TLS handshake
	opts.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer context.AfterFunc(l.closed, cancel)()
		defer cancel()
		socket, err := dial(ctx, network, addr)
		l.sockMu.Lock()
		l.socket = socket
		l.sockMu.Unlock()
		l.ready.Store(false)
		return socket, err
	}
	opts.OnConnect = func(context.Context, *redis.Conn) error {
		l.ready.Store(true)
		return nil
	}
	l.client = redis.NewClient(opts)
	l.conn = l.client.Conn()
	return l
}

// open returns l's socket (busy held), opening the connection with a
// PING when no command went on it yet: go-redis dials, and says hello,
// on a command.
func (l *link) open(ctx context.Context) (net.Conn, error) {
	if !l.ready.Load() {
		err := l.conn.Ping(context.WithoutCancel(ctx)).Err()
		if !l.ready.Load() {
			return nil, cmp.Or(err, errors.New("the connection did not open"))
		}
	}
	l.sockMu.Lock()
	defer l.sockMu.Unlock()
	return l.socket, nil
}

// write writes a command on l's socket (busy held) and reads nothing.
func (l *link) write(ctx context.Context, command []byte) error {
	socket, err := l.open(ctx)
	if err == nil {
		_, err = socket.Write(command)
	}
	return err
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
