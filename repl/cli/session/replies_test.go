package session

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

// plainConn is a connection with no name to the server at addr, closed
// when the test ends.
func plainConn(t *testing.T, addr string, embedded bool) *Conn {
	c := NewConn(Target{Network: "tcp", Addr: addr, Embedded: embedded}, "")
	t.Cleanup(c.Close)
	return c
}

// TestClientReply: after CLIENT REPLY OFF no reply is waited for (each
// command's reply is resp.None) until CLIENT REPLY ON, which answers OK;
// SKIP skips the next command's reply only. The replies that do come
// belong to their own commands, sent alone or in a batch. Before, OFF
// and SKIP waited for ever for a reply the server never sends.
func TestClientReply(t *testing.T) {
	ctx, c := context.Background(), plainConn(t, redistest.Real(t), false)
	steps := []struct {
		args string
		want string // resp.Reply.String(); "" for resp.None
	}{
		{"CLIENT REPLY OFF", ""},
		{"SET n 1", ""},
		{"INCR n", ""},
		{"CLIENT REPLY SKIP", ""}, // while off: changes nothing
		{"INCR n", ""},
		{"client reply on", "+OK"},
		{"GET n", `"3"`},
		{"CLIENT REPLY SKIP", ""},
		{"INCR n", ""},
		{"GET n", `"4"`},
		{"CLIENT REPLY BAD", `(error "ERR syntax error")`},
		{"RESET", "+RESET"},
	}
	for _, s := range steps {
		r, err := c.Do(ctx, strings.Fields(s.args))
		if got := r.String(); err != nil || (s.want == "" && r.Kind != resp.None) || (s.want != "" && got != s.want) {
			t.Fatalf("%s: %v, %v; want %q (\"\": no reply)", s.args, got, err, s.want)
		}
	}
	c.Do(ctx, []string{"CLIENT", "REPLY", "OFF"})
	rs, err := c.DoBatch(ctx, [][]string{{"SET", "b", "1"}, {"CLIENT", "REPLY", "ON"}, {"INCR", "b"}})
	if err != nil || len(rs) != 3 || rs[0].Kind != resp.None || rs[1].Str != "OK" || rs[2].Int != 2 {
		t.Errorf("a batch with replies off: %v, %v; want no reply, OK, 2", rs, err)
	}
}

// TestClientReplyInTransaction: CLIENT REPLY inside MULTI is queued
// (QUEUED), and the server cuts the reply of the EXEC that runs it short:
// that EXEC is not read, and the connection is closed after it, so the
// next command's reply is its own.
func TestClientReplyInTransaction(t *testing.T) {
	ctx, c := context.Background(), plainConn(t, redistest.Real(t), false)
	for _, s := range []struct{ args, want string }{
		{"MULTI", "+OK"}, {"SET t 1", "+QUEUED"}, {"CLIENT REPLY OFF", "+QUEUED"}, {"INCR t", "+QUEUED"},
		{"EXEC", "None"}, {"GET t", `"2"`}, {"PING", "+PONG"},
	} {
		r, err := c.Do(ctx, strings.Fields(s.args))
		if got := r.String(); err != nil || got != s.want {
			t.Fatalf("%s: %v, %v; want %s", s.args, got, err, s.want)
		}
	}
}

// TestClientReplyEmbedded: the embedded server has no CLIENT REPLY and
// answers with an error, which is read; nothing else changes.
func TestClientReplyEmbedded(t *testing.T) {
	ctx, c := context.Background(), plainConn(t, redistest.Embedded(t), true)
	if r, err := c.Do(ctx, []string{"CLIENT", "REPLY", "OFF"}); err != nil || !r.IsError() {
		t.Fatalf("CLIENT REPLY OFF on the embedded server: %v, %v; want its error", r, err)
	}
	if r, err := c.Do(ctx, []string{"PING"}); err != nil || r.Str != "PONG" {
		t.Errorf("PING after: %v, %v; want PONG", r, err)
	}
}

// TestReplyOffSkipsTheProbe: a middleware sees Call.Transaction while
// replies are off, and sends nothing of its own (it would get no reply).
func TestReplyOffSkipsTheProbe(t *testing.T) {
	set := NewSet(Target{Network: "tcp", Addr: redistest.Real(t)})
	defer set.Close()
	var seen []bool
	set.Use(func(next Do) Do {
		return func(ctx context.Context, c *Conn, args []string) (Event, error) {
			seen = append(seen, CallOf(ctx).Transaction)
			return next(ctx, c, args)
		}
	})
	sess := set.Get("alice")
	for _, args := range []string{"PING", "CLIENT REPLY SKIP", "SET k v", "GET k"} {
		if _, err := sess.Do(context.Background(), strings.Fields(args)); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
	}
	if want := []bool{false, false, true, false}; !slices.Equal(seen, want) {
		t.Errorf("Call.Transaction for PING, CLIENT REPLY SKIP, SET, GET: %v, want %v", seen, want)
	}
}

// TestStreamsSpellings: a command that streams (commands.Streams) is the
// connection's last, in any case, and never shares a pipeline; inside
// MULTI it is queued, and the EXEC that runs it is the last.
func TestStreamsSpellings(t *testing.T) {
	for _, words := range []string{"SUBSCRIBE ch", "subscribe ch", "Psubscribe n*", "ssubscribe ch", "monitor", "MONITOR"} {
		args := strings.Fields(words)
		l := &link{}
		if answered, last := l.sending(args); !answered || !last {
			t.Errorf("%s: answered %v, last %v; want an answer, then the connection closed", words, answered, last)
		}
		if (&link{}).plain([][]string{{"PING"}, args}) {
			t.Errorf("%s: sent in a pipeline", words)
		}
		l = &link{}
		l.sending([]string{"multi"})
		l.sending(args)
		if _, last := l.sending([]string{"exec"}); !last {
			t.Errorf("%s in MULTI: the EXEC is not the connection's last", words)
		}
	}
	for _, words := range []string{"PUBLISH ch m", "unsubscribe", "GET a"} {
		if _, last := (&link{}).sending(strings.Fields(words)); last {
			t.Errorf("%s: taken for a stream", words)
		}
	}
}

// TestUntouchingCommandsLeaveTheConnection asks a real redis-server, an
// outside observer: every command that touchesConnection says leaves its
// connection as it was, and that can be sent bare (its name alone: TIME,
// DBSIZE, FLUSHDB, MEMORY STATS ...), leaves the connection's name,
// database, protocol, flags, subscriptions, transaction and user as
// CLIENT INFO showed them before. A command that changed any of these
// would make a kept connection (Links.keep) serve the next session in a
// state a new connection does not have.
func TestUntouchingCommandsLeaveTheConnection(t *testing.T) {
	c := redistest.Dial(t, redistest.Real(t))
	c.Do("CLIENT", "SETNAME", "watcher")
	c.Do("SELECT", "3")
	before := connectionState(t, c)
	sent := 0
	for _, cmd := range commands.All() {
		words := strings.Fields(cmd.Name)
		if touchesConnection(words) || cmd.Group == "transactions" || (cmd.Arity != len(words) && cmd.Arity != -len(words)) {
			continue // MULTI, EXEC and DISCARD: link.multi follows them
		}
		c.Do(words...)
		sent++
		if after := connectionState(t, c); after != before {
			t.Errorf("%s changed its connection: %s, was %s", cmd.Name, after, before)
			before = after
		}
	}
	if sent < 10 || !strings.Contains(before, "name=watcher") || !strings.Contains(before, "db=3") {
		t.Fatalf("%d commands sent; the connection before them: %s", sent, before)
	}
}

// connectionState is what CLIENT INFO says of c's own state: its fields
// but those that change with every command (age, idle, buffers, the last
// command).
func connectionState(t *testing.T, c *redistest.Conn) string {
	t.Helper()
	r, _ := c.Do("CLIENT", "INFO")
	var kept []string
	for _, field := range strings.Fields(r.Str) {
		name, _, _ := strings.Cut(field, "=")
		if slices.Contains([]string{"name", "db", "flags", "sub", "psub", "ssub", "multi", "watch", "resp", "user", "redir", "lib-name", "lib-ver"}, name) {
			kept = append(kept, field)
		}
	}
	return strings.Join(kept, " ")
}
