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
// a new one would be (HELLO 2, CLIENT SETNAME name, the target's
// database) and its watched keys dropped (UNWATCH): the server's side of
// it is then a new connection's. Which server they belong to is the caller's to keep:
// one Links per server.
type Links struct {
	mu   sync.Mutex
	idle map[string][]*link // by session name
	open int
}

// maxKept bounds the connections a Links keeps: searches of scripts
// whose sessions have other names leave theirs unused.
const maxKept = 32

// NewLinks makes an empty keeper.
func NewLinks() *Links { return &Links{idle: map[string][]*link{}} }

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
	ls.idle, ls.open = map[string][]*link{}, 0
}

// take is a kept connection for session name, or nil.
func (ls *Links) take(name string) *link {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	kept := ls.idle[name]
	if len(kept) == 0 {
		return nil
	}
	l := kept[len(kept)-1]
	ls.idle[name] = kept[:len(kept)-1]
	ls.open--
	return l
}

// keep keeps c's link l for the next session named as c, when it can be
// reset (see Links); it reports false when it did not keep it. c.mu is
// held.
func (ls *Links) keep(c *Conn, l *link) bool {
	if ls.Open() >= maxKept || l.dropped.Load() || !l.ready.Load() || c.user != c.target.User || c.pass != c.target.Password {
		return false
	}
	l.busy.Lock()
	defer l.busy.Unlock()
	if l.multi || l.mode() != repliesOn || !l.reset(c.name, c.target.DB) {
		return false
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.idle[c.name] = append(ls.idle[c.name], l)
	ls.open++
	return true
}

// reset greets l's server again as go-redis greets a new connection, on
// database db, and drops its watched keys (busy held).
func (l *link) reset(name string, db int) bool {
	ctx := context.Background()
	pipe := l.conn.Pipeline()
	cmds := []*redis.Cmd{pipe.Do(ctx, "HELLO", "2"), pipe.Do(ctx, "CLIENT", "SETNAME", name),
		pipe.Do(ctx, "SELECT", strconv.Itoa(db)), pipe.Do(ctx, "UNWATCH")}
	pipe.Exec(ctx)
	for _, cmd := range cmds {
		if cmd.Err() != nil {
			return false
		}
	}
	return true
}
