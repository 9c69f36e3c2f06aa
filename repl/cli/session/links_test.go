package session

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/clock"
)

// keptTarget is a target on a new in-process server that keeps closed
// sessions' connections.
func keptTarget(t *testing.T) Target {
	t.Helper()
	e, err := server.StartInProcess(clock.Real{})
	if err != nil {
		t.Fatal(err)
	}
	ls := NewLinks()
	t.Cleanup(func() { ls.Close(); e.Close() })
	return Target{Network: "tcp", Addr: "127.0.0.1:0", Embedded: true, InProcess: e, Links: ls}
}

// TestKeptConnectionIsNew: a session's connection kept after Close serves
// the next session of the same name as a new one would: its name again,
// database 0, no watched key; a session on database 1 does not take it.
func TestKeptConnectionIsNew(t *testing.T) {
	ctx := context.Background()
	tg := keptTarget(t)
	c := NewConn(tg, "alice")
	for _, args := range [][]string{{"SET", "n", "1"}, {"WATCH", "n"}, {"CLIENT", "SETNAME", "renamed"}, {"MULTI"}, {"SELECT", "1"}, {"EXEC"}} {
		if _, err := c.Do(ctx, args); err != nil {
			t.Fatal(args, err)
		}
	}
	c.Close()
	if tg.Links.Open() != 1 {
		t.Fatalf("%d connections kept, want 1", tg.Links.Open())
	}
	other := NewConn(tg, "alice")
	other.Do(ctx, []string{"INCR", "n"}) // would abort a transaction under the old WATCH
	next := NewConn(tg, "alice")
	got := map[string]string{}
	for _, args := range [][]string{{"CLIENT", "GETNAME"}, {"GET", "n"}} {
		r, err := next.Do(ctx, args)
		if err != nil {
			t.Fatal(err)
		}
		got[args[0]] = r.Str
	}
	next.Do(ctx, []string{"MULTI"})
	next.Do(ctx, []string{"INCR", "n"})
	exec, _ := next.Do(ctx, []string{"EXEC"})
	if got["CLIENT"] != "alice" || got["GET"] != "2" || len(exec.Elems) != 1 {
		t.Errorf("the kept connection: name %q, n %q on its database, EXEC %v; want alice, 2, one reply", got["CLIENT"], got["GET"], exec)
	}
	other.Close()
	next.Close()
	kept := tg.Links.Open()
	onDB1 := tg
	onDB1.DB = 1
	db1 := NewConn(onDB1, "alice")
	defer db1.Close()
	if r, err := db1.Do(ctx, []string{"GET", "n"}); err != nil || r.Kind != resp.Nil || tg.Links.Open() != kept {
		t.Errorf("a session on database 1: GET n %v %v, %d kept (%d before): it took a connection kept on database 0", r, err, tg.Links.Open(), kept)
	}
}

// TestCloseWhileBlocked: closing a session while a blocked command holds
// its connection (BLPOP q 0), then cutting the command, ends both: a
// connection in use is closed, never waited for (the cut waits for the
// session's lock that Close holds).
func TestCloseWhileBlocked(t *testing.T) {
	tg := keptTarget(t)
	c := NewConn(tg, "alice")
	if _, err := c.Do(context.Background(), []string{"PING"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	blocked := make(chan error, 1)
	go func() { _, err := c.Do(ctx, []string{"BLPOP", "q", "0"}); blocked <- err }()
	for c.current().busy.TryLock() { // until BLPOP holds the connection
		c.current().busy.Unlock()
		runtime.Gosched()
	}
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	cancel()
	for _, ch := range []<-chan struct{}{closed, doneOf(blocked)} {
		select {
		case <-ch:
		case <-time.After(20 * time.Second):
			t.Fatal("Close or the cut BLPOP never returned")
		}
	}
}

func doneOf(ch <-chan error) <-chan struct{} {
	done := make(chan struct{})
	go func() { <-ch; close(done) }()
	return done
}
