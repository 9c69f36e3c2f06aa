package stream

import (
	"bytes"
	"context"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// printed collects what Do delivers, as the shell's printer would print
// it (raw), after the banner, if any. It is read once Do has returned.
type printed struct {
	bytes.Buffer
	in chan struct{} // a value at each reply: the first is the subscription
}

func (p *printed) printer(tty bool) Printer {
	p.in = make(chan struct{}, 1)
	return Printer{Out: p, TTY: tty, Deliver: func(e session.Event) {
		p.WriteString(resp.FormatRaw(e.Reply))
		select {
		case p.in <- struct{}{}:
		default:
		}
	}}
}

// TestEndOfMainLines: a SUBSCRIBE under a run's scope streams until End,
// then prints what was published before it and returns without error; a
// scope inside it (a script run by the run) ends only its own streams.
// Before, a subscriber job held the run's final wait for ever. (On
// redis-server: the embedded Redis writes messages from a goroutine of
// its own, after PUBLISH answers.)
func TestEndOfMainLines(t *testing.T) {
	set := session.NewSet(session.Target{Network: "tcp", Addr: redistest.Real(t)})
	defer set.Close()
	pub := set.Get("pub")
	run := Scope(context.Background())
	inner := Scope(run)
	var p printed
	pr := p.printer(false)
	done := make(chan error, 1)
	go func() {
		_, err := Do(run, set.Get("sub"), []string{"SUBSCRIBE", "news"}, pr)
		done <- err
	}()
	<-p.in     // subscribed
	End(inner) // not the stream's scope: it goes on
	pub.Do(context.Background(), []string{"PUBLISH", "news", "one"})
	pub.Do(context.Background(), []string{"PUBLISH", "news", "two"})
	End(run)
	if err := <-done; err != nil {
		t.Errorf("the stream ended with %v, want nil", err)
	}
	if want := "subscribe\nnews\n1\nmessage\nnews\none\nmessage\nnews\ntwo\n"; p.String() != want {
		t.Errorf("printed %q, want %q", p.String(), want)
	}
}

// TestBanner: redis-cli's "Reading messages..." line comes before the
// replies of a SUBSCRIBE in the terminal format only, and never for
// MONITOR or any other command.
func TestBanner(t *testing.T) {
	set := session.NewSet(session.Target{Network: "tcp", Addr: redistest.Embedded(t), Embedded: true})
	defer set.Close()
	run := Scope(context.Background())
	End(run) // the stream ends as soon as its subscription is in
	for _, c := range []struct {
		args []string
		tty  bool
		want string
	}{
		{[]string{"SUBSCRIBE", "news"}, true, Banner + "\nsubscribe\nnews\n1\n"},
		{[]string{"SUBSCRIBE", "news"}, false, "subscribe\nnews\n1\n"},
		{[]string{"MONITOR"}, true, "ERR unknown command `MONITOR`, with args beginning with: \n\n"},
		{[]string{"PING"}, true, "PONG\n"},
	} {
		var p printed
		if _, err := Do(run, set.Get("main"), c.args, p.printer(c.tty)); err != nil {
			t.Errorf("%s: %v", c.args, err)
		}
		if p.String() != c.want {
			t.Errorf("%s (tty %v) printed %q, want %q", c.args, c.tty, p.String(), c.want)
		}
	}
}

// TestInsideMulti: inside MULTI a SUBSCRIBE is only queued: one reply.
func TestInsideMulti(t *testing.T) {
	set := session.NewSet(session.Target{Network: "tcp", Addr: redistest.Embedded(t), Embedded: true})
	defer set.Close()
	sess := set.Get("main")
	var p printed
	for _, args := range [][]string{{"MULTI"}, {"SUBSCRIBE", "news"}, {"DISCARD"}} {
		if _, err := Do(context.Background(), sess, args, p.printer(false)); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
	}
	if want := "OK\nQUEUED\nOK\n"; p.String() != want {
		t.Errorf("printed %q, want %q", p.String(), want)
	}
}
