package session

import (
	"strings"

	"github.com/locklab/locklab/repl/cli/commands"
)

// replyMode is whether the server answers a connection's commands, as
// CLIENT REPLY set it.
type replyMode uint32

const (
	repliesOn  replyMode = iota
	repliesOff           // CLIENT REPLY OFF: no reply until CLIENT REPLY ON
	skipNext             // CLIENT REPLY SKIP: no reply to the next command
)

// queued is what a transaction queued that changes how its EXEC reads.
type queued uint8

const (
	queuedStream queued = 1 << iota // SUBSCRIBE or MONITOR: messages follow EXEC's reply
	queuedReply                     // CLIENT REPLY: EXEC's reply stops short, or never comes
)

// clientReply is the mode CLIENT REPLY ON|OFF|SKIP asks for; ok is false
// for any other command.
func clientReply(args []string) (mode replyMode, ok bool) {
	if len(args) != 3 || !strings.EqualFold(args[0], "CLIENT") || !strings.EqualFold(args[1], "REPLY") {
		return 0, false
	}
	switch strings.ToUpper(args[2]) {
	case "ON":
		return repliesOn, true
	case "OFF":
		return repliesOff, true
	case "SKIP":
		return skipNext, true
	}
	return 0, false // a syntax error, answered
}

func (l *link) mode() replyMode        { return replyMode(l.replies.Load()) }
func (l *link) setMode(mode replyMode) { l.replies.Store(uint32(mode)) }

// sending is told of each command as it goes out on l (busy held), as the
// server takes it, and says whether the server answers it, and whether l
// must be closed after it because what comes next could be read as the
// reply to a later command. CLIENT REPLY OFF and SKIP are never answered,
// ON always; while replies are off no command is, and after SKIP the next
// is not (SKIP while off changes nothing). RESET is answered and sets
// replies back on. The embedded server has no CLIENT REPLY: it answers
// with an error, and nothing changes.
func (l *link) sending(args []string) (answered, last bool) {
	l.touched = l.touched || touchesConnection(args)
	answered = l.mode() == repliesOn
	mode, isReply := clientReply(args)
	isReply = isReply && !l.embedded
	switch name := strings.ToUpper(args[0]); {
	case name == "QUIT":
		return answered, true // the server closes the connection after its OK: the next command dials again
	case name == "RESET":
		l.setMode(repliesOn)
		l.multi, l.queued = false, 0
		return true, false
	case l.multi:
		var cut bool
		cut, last = l.transaction(name, args, isReply)
		answered = answered && !cut
	case name == "MULTI":
		l.multi = true
	case commands.Streams(args):
		last = true // read with Do, which takes one reply: the connection serves nothing else after
	case isReply:
		if mode != skipNext || l.mode() == repliesOn {
			l.setMode(mode)
		}
		return mode == repliesOn, false
	}
	if l.mode() == skipNext {
		l.setMode(repliesOn)
	}
	return answered, last
}

// transaction is sending for a command inside MULTI: it is queued, or it
// ends the transaction. The EXEC of a transaction that queued CLIENT
// REPLY is not read (the server cuts its reply short: cut); the link is
// closed after the EXEC of one that queued CLIENT REPLY or a stream.
func (l *link) transaction(name string, args []string, isReply bool) (cut, last bool) {
	switch name {
	case "EXEC":
		q := l.queued
		l.multi, l.queued = false, 0
		return q&queuedReply != 0, q != 0
	case "DISCARD":
		l.multi, l.queued = false, 0
	default:
		if isReply {
			l.queued |= queuedReply
		}
		if commands.Streams(args) {
			l.queued |= queuedStream
		}
	}
	return false, false
}

// plain reports whether the commands of batch each get one reply and
// leave l as it was for the next: they may go in one pipeline. It notes
// them sent when they may (busy held).
func (l *link) plain(batch [][]string) bool {
	if l.mode() != repliesOn || l.queued != 0 {
		return false
	}
	for _, args := range batch {
		if _, isReply := clientReply(args); isReply || commands.Streams(args) || strings.EqualFold(args[0], "RESET") {
			return false
		}
	}
	for _, args := range batch {
		l.sending(args)
	}
	return true
}

// touchesConnection reports whether a command may change its own
// connection's state (name, database, protocol, watched keys, reply
// mode, tracking...), which a kept connection must be greeted again to
// undo (Links.keep). The command table says what a command works on:
// one of the data types, or the keyspace in general, leaves the
// connection as it was, and so does a server command that is not an
// administrator's (TIME, INFO, DBSIZE, FLUSHDB: they read or change the
// server's data; the probe sends TIME with every lock command). Anything
// else may not, nor may a command the table does not know: the
// connection's commands, an administrator's (CONFIG SET, REPLCONF,
// MONITOR), the cluster's, pub/sub, and scripts (on the embedded server
// a failing script that called redis.setresp(3) leaves its caller in
// RESP3, and one that returns a Lua function has its connection closed;
// on Redis, SCRIPT DEBUG changes the caller's next EVAL). A
// transaction's MULTI, EXEC and DISCARD are followed by link.multi
// instead: a connection inside MULTI is never kept, and one whose
// transaction ended is as it was; what it queued was sent, and judged,
// as each command went out.
func touchesConnection(args []string) bool {
	c, _ := commands.Lookup(args)
	if c == nil {
		return true
	}
	switch c.Group {
	case "string", "list", "set", "sorted-set", "hash", "stream", "bitmap", "hyperloglog", "geo", "generic":
		return false
	case "server":
		return c.Flags&commands.FlagAdmin != 0
	case "transactions":
		return c.Name == "WATCH" || c.Name == "UNWATCH"
	}
	return true
}
