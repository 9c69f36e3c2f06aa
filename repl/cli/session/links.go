package session

import (
	"context"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Links keeps the connections of closed sessions open, for sessions of
// the same names that come after on the same server: explore runs a
// script once per schedule on one embedded server reset in place, and a
// connection reset costs one round trip where a new one costs a client,
// a dial and a handshake. A connection is kept only when nothing it did
// lasts past a reset: it is open and greeted, outside MULTI, its replies
// on, its credentials the target's; a stream or a raw protocol (Stream,
// Raw) or a cut command closed it already. Kept, it is greeted again as
// a new one would be (HELLO in its protocol, CLIENT SETNAME name, SELECT
// its database) and its watched keys dropped (UNWATCH), when a command it
// sent may have changed any of these (touchesConnection): the server's side
// of it is then a new connection's, and only a session that would open
// the same one (name, database, protocol, credentials, address: linkKey)
// takes it. Which server they belong to is the caller's to keep:
// one Links per server.
type Links struct {
	mu   sync.Mutex
	idle map[linkKey][]*link
	open int
}

// linkKey is what a kept connection is, to the session that may take it:
// a connection is greeted again as its session's new one would be (the
// same name, database, protocol and credentials, on the same address),
// and taken only by a session that would greet its own so.
type linkKey struct {
	name, addr, user, pass string
	db                     int
	resp3                  bool
}

// keyOf is the key of the connection c would open now (c.mu held).
func keyOf(c *Conn) linkKey {
	return linkKey{name: c.name, addr: c.target.Network + ":" + c.target.Addr, user: c.user, pass: c.pass, db: c.db, resp3: c.target.RESP3}
}

// maxKept bounds the connections a Links keeps: searches of scripts
// whose sessions have other names leave theirs unused.
const maxKept = 32

// NewLinks makes an empty keeper.
func NewLinks() *Links { return &Links{idle: map[linkKey][]*link{}} }

// Open is how many connections it keeps.
func (ls *Links) Open() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.open
}

// Close closes every connection it keeps.
func (ls *Links) Close() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, kept := range ls.idle {
		for _, l := range kept {
			l.close()
		}
	}
	ls.idle, ls.open = map[linkKey][]*link{}, 0
}

// take is a kept connection that c would have opened (c.mu held), or
// nil.
func (ls *Links) take(c *Conn) *link {
	key := keyOf(c)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	kept := ls.idle[key]
	if len(kept) == 0 {
		return nil
	}
	l := kept[len(kept)-1]
	ls.idle[key] = kept[:len(kept)-1]
	ls.open--
	return l
}

// keep keeps c's link l for the next session that would open the same
// connection, when it can be reset (see Links); it reports false when it
// did not keep it. c.mu is held: a link another caller is using (its
// busy held, and its cut waiting for c.mu) is not kept, never waited for.
func (ls *Links) keep(c *Conn, l *link) bool {
	if ls.Open() >= maxKept || l.dropped.Load() || !l.ready.Load() || c.user != c.target.User || c.pass != c.target.Password {
		return false
	}
	if !l.busy.TryLock() {
		return false
	}
	defer l.busy.Unlock()
	if l.multi || l.mode() != repliesOn || l.touched && !l.reset(c.name, c.db, c.target.RESP3) {
		return false
	}
	l.touched = false
	key := keyOf(c)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.idle[key] = append(ls.idle[key], l)
	ls.open++
	return true
}

// reset greets l's server again as go-redis greets a new connection
// (HELLO in its protocol, its name, its database), and drops its watched
// keys (busy held).
func (l *link) reset(name string, db int, resp3 bool) bool {
	protocol := "2"
	if resp3 {
		protocol = "3"
	}
	ctx := context.Background()
	pipe := l.conn.Pipeline()
	cmds := []*redis.Cmd{pipe.Do(ctx, "HELLO", protocol), pipe.Do(ctx, "CLIENT", "SETNAME", name),
		pipe.Do(ctx, "SELECT", strconv.Itoa(db)), pipe.Do(ctx, "UNWATCH")}
	pipe.Exec(ctx)
	for _, cmd := range cmds {
		if cmd.Err() != nil {
			return false
		}
	}
	return true
}
