package redlock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/duration"
	"github.com/locklab/locklab/repl/lang/flags"
)

// Env is what the words need of the run: where lines go, the session a
// command runs in (the holder's name), the lab's clock, the sessions (to
// pause one) and the run's record (the commands the holders sent).
type Env interface {
	Stdout() io.Writer
	Session() string
	Clock() clock.Clock
	Sessions() *session.Set
	Recorder() *record.Recorder
}

// The words' arguments (package flags): their usage lines, the check of
// a script's calls, completion.
var (
	Spec = &flags.Spec{Name: "redlock", Subs: []*flags.Spec{
		{Name: "redlock up", Summary: "start N independent nodes (embedded, or real redis-server processes)", Flags: []flags.Flag{
			{Name: "nodes", Kind: flags.Int, Min: 1, Default: "5", Help: "how many nodes (A, B, C ...)"},
			{Name: "real", Kind: flags.Bool, Help: "real redis-server processes instead of embedded ones"},
			{Name: "client", Kind: flags.Enum, Choices: []string{"locklab", "redsync"}, Default: "locklab", Help: "who runs the algorithm: locklab's steps, or go-redsync/redsync"}}},
		{Name: "redlock down", Summary: "stop the nodes"},
		{Name: "redlock status", Args: []flags.Arg{{Name: "KEY", Optional: true}}, Summary: "each node's clock and the key's holder and TTL"},
		{Name: "redlock acquire", Args: []flags.Arg{{Name: "KEY"}, {Name: "TOKEN"}}, Summary: "Redlock's acquire, in the calling session's name", Flags: []flags.Flag{
			{Name: "ttl", Kind: flags.Duration, Default: "10s", MinDur: time.Millisecond, Help: "the lock's TTL on each node"},
			{Name: "drift", Kind: flags.Float, Default: "0.01", Help: "the clock drift factor taken off the validity"},
			{Name: "timeout", Kind: flags.Duration, Default: "1s", MinDur: time.Millisecond, Help: "how long to wait for each node"}}},
		{Name: "redlock release", Args: []flags.Arg{{Name: "KEY"}, {Name: "TOKEN"}}, Summary: "compare-and-delete on every node"},
		{Name: "redlock verdict", Summary: "the verdict on the holders so far"},
	}}
	ClockSpec = &flags.Spec{Name: "clock", Subs: []*flags.Spec{
		{Name: "clock jump", Args: []flags.Arg{{Name: "NODE"}, {Name: "+DUR|-DUR"}}}}}
	CrashSpec   = &flags.Spec{Name: "crash", Args: []flags.Arg{{Name: "NODE"}}}
	RestartSpec = &flags.Spec{Name: "restart", Args: []flags.Arg{{Name: "NODE"}}, Flags: []flags.Flag{
		{Name: "delay", Kind: flags.Duration, Help: "come back after this long (the node is down meanwhile)"}}}
	PauseSpec = &flags.Spec{Name: "pause", Args: []flags.Arg{{Name: "SESSION"}, {Name: "DUR", Kind: flags.Duration}}}
)

// specs are the words' specs by name.
var specs = map[string]*flags.Spec{"redlock": Spec, "clock": ClockSpec, "crash": CrashSpec, "restart": RestartSpec, "pause": PauseSpec}

// Run runs one of the words redlock, clock, crash NODE, restart, pause;
// args[0] is the word.
func (l *Lab) Run(ctx context.Context, env Env, args []string) error {
	p, err := specs[args[0]].Parse(args[1:])
	if err != nil {
		return err
	}
	switch args[0] {
	case "redlock":
		return l.redlock(ctx, env, p)
	case "clock":
		return l.asStep(ctx, env, p.Args[0], args, func() error { return l.jumpWord(env, p) })
	case "crash":
		return l.asStep(ctx, env, p.Args[0], args, func() error { return l.crashWord(env, p.Args[0]) })
	case "restart":
		return l.asStep(ctx, env, p.Args[0], args, func() error { return l.restartWord(env, p) })
	}
	return pauseWord(env, p)
}

// asStep runs fault, a word args that acts on node, at once; in a gated
// lab (UpAt) in a turn of its own at the gate, a step of the calling
// session's on the node ("main@C crash C"), so that explore's scheduler
// orders it among the commands to that node (with which it commutes with
// none, and with every other). An unknown node takes no turn.
func (l *Lab) asStep(ctx context.Context, env Env, node string, args []string, fault func() error) error {
	l.mu.Lock()
	g := l.gate
	_, err := l.findLocked(node)
	l.mu.Unlock()
	if g == nil || err != nil {
		return fault()
	}
	release, err := session.TurnOn(ctx, g, env.Session(), node, args)
	if err != nil {
		return err
	}
	err = fault()
	release(session.Event{Session: env.Session(), Args: args, Err: err})
	return err
}

// crashWord is `crash NODE`.
func (l *Lab) crashWord(env Env, name string) error {
	if err := l.Crash(name); err != nil {
		return err
	}
	l.fault(env, quorum.Crash, name, 0, fmt.Sprintf("node %s crashed: its data is gone", name))
	return nil
}

func (l *Lab) redlock(ctx context.Context, env Env, p *flags.Parsed) error {
	switch p.Sub {
	case "up":
		return l.upWord(ctx, env, p)
	case "down":
		l.Down()
		l.fault(env, quorum.Down, "", 0, "redlock: nodes stopped")
		return nil
	case "status":
		return l.status(ctx, env, p.Args)
	case "acquire":
		return l.acquireWord(ctx, env, p)
	case "release":
		return l.releaseWord(ctx, env, p.Args[0], p.Args[1])
	}
	l.printVerdict(env.Stdout(), env.Recorder())
	return nil
}

// upWord is `redlock up`: its nodes, once the nodes of an earlier
// `redlock up` are down (redlock down, which records their end).
func (l *Lab) upWord(ctx context.Context, env Env, p *flags.Parsed) error {
	n, kind, client := int(p.Int("nodes")), Embedded, Locklab
	if p.Bool("real") {
		kind = Real
	}
	if p.String("client") == "redsync" {
		client = Redsync
	}
	gate := env.Sessions().Gate()
	if client == Redsync {
		gate = nil // its library sends from goroutines of its own, which no gate can order
	}
	if err := l.UpAt(ctx, n, env.Clock(), kind, gate); err != nil {
		return err
	}
	l.Use(client)
	fmt.Fprintf(env.Stdout(), "redlock: %d independent nodes up (%s), %s; a majority is %d%s\n",
		n, strings.Join(l.names(), " "), l.describe(), n/2+1, clientNote[client])
	return nil
}

// clientNote says who runs the algorithm, after `redlock up`'s line.
var clientNote = map[Client]string{Redsync: "; acquire and release run through go-redsync/redsync v4 (its go-redis v9 pool)"}

// jumpWord is `clock jump NODE +DUR|-DUR`.
func (l *Lab) jumpWord(env Env, p *flags.Parsed) error {
	name, dur := p.Args[0], p.Args[1]
	d, err := duration.Parse(dur)
	var bare *duration.NoUnitError
	switch {
	case errors.As(err, &bare):
		return p.Spec.Errorf("%v", err)
	case err != nil || dur[0] != '+' && dur[0] != '-':
		return p.Spec.Errorf("+DUR|-DUR needs a signed duration such as +3s or -500ms, got %q", dur)
	}
	total, err := l.Jump(name, d)
	if err != nil {
		return err
	}
	l.fault(env, quorum.Jump, name, d, fmt.Sprintf("node %s's clock jumped %s (now %s from the lab's clock): its TTLs moved with it",
		name, dur, signed(total)))
	return nil
}

func signed(d time.Duration) string {
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}

func (l *Lab) restartWord(env Env, p *flags.Parsed) error {
	delay := p.Duration("delay")
	name, w := p.Args[0], env.Stdout()
	done := func(err error) {
		if err != nil {
			fmt.Fprintf(w, "node %s: %v\n", name, err)
		}
	}
	if err := l.Restart(name, delay, env.Clock(), done); err != nil {
		return err
	}
	text := fmt.Sprintf("node %s restarted, empty (no persistence)", name)
	if delay > 0 {
		text = fmt.Sprintf("node %s restarts in %v, empty", name, delay)
	}
	l.fault(env, quorum.Restart, name, 0, text)
	return nil
}
