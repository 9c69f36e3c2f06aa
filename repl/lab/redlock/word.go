package redlock

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/duration"
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

// UsageError is bad arguments: the usage line of the word.
type UsageError string

func (u UsageError) Error() string { return "usage: " + string(u) }

// durationArg reads a DUR given to flag (duration.Flag; flag "" for an
// argument: pause's DUR): a refusal is usage's line with what is wrong
// after it, as schedule's is ("--ttl 300: 300 needs a unit: 300s or
// 300ms").
func durationArg(usage, flag, value string) (time.Duration, error) {
	var d time.Duration
	var err error
	if flag == "" {
		d, err = duration.Parse(value)
	} else {
		d, err = duration.Flag(flag, value)
	}
	if err != nil {
		return 0, UsageError(usage + "   (" + err.Error() + ")")
	}
	return d, nil
}

// The words' usage lines.
const (
	Usage        = "redlock up [--nodes N] [--real] [--client redsync] | down | status [KEY] | acquire KEY TOKEN [--ttl DUR] [--drift F] [--timeout DUR] | release KEY TOKEN | verdict"
	ClockUsage   = "clock jump NODE +DUR|-DUR"
	CrashUsage   = "crash NODE"
	RestartUsage = "restart NODE [--delay DUR]"
	PauseUsage   = "pause SESSION DUR"
)

// Run runs one of the words redlock, clock, crash NODE, restart.
func (l *Lab) Run(ctx context.Context, env Env, args []string) error {
	switch {
	case args[0] == "redlock" && len(args) > 1:
		return l.redlock(ctx, env, args[1], args[2:])
	case args[0] == "clock" && len(args) == 4 && args[1] == "jump":
		return l.jumpWord(env, args[2], args[3])
	case args[0] == "crash" && len(args) == 2:
		if err := l.Crash(args[1]); err != nil {
			return err
		}
		l.fault(env, quorum.Crash, args[1], 0, fmt.Sprintf("node %s crashed: its data is gone", args[1]))
		return nil
	case args[0] == "restart":
		return l.restartWord(env, args[1:])
	case args[0] == "pause" && len(args) == 3:
		return pauseWord(env, args[1], args[2])
	}
	return usageOf(args[0])
}

func usageOf(word string) error {
	switch word {
	case "clock":
		return UsageError(ClockUsage)
	case "crash":
		return UsageError(CrashUsage)
	case "restart":
		return UsageError(RestartUsage)
	case "pause":
		return UsageError(PauseUsage)
	}
	return UsageError(Usage)
}

func (l *Lab) redlock(ctx context.Context, env Env, sub string, args []string) error {
	switch {
	case sub == "up":
		return l.upWord(ctx, env, args)
	case sub == "down" && len(args) == 0:
		l.Down()
		l.fault(env, quorum.Down, "", 0, "redlock: nodes stopped")
		return nil
	case sub == "status" && len(args) <= 1:
		return l.status(ctx, env.Stdout(), args)
	case sub == "acquire" && len(args) >= 2:
		return l.acquireWord(ctx, env, args)
	case sub == "release" && len(args) == 2:
		return l.releaseWord(ctx, env, args[0], args[1])
	case sub == "verdict" && len(args) == 0:
		l.printVerdict(env.Stdout(), env.Recorder())
		return nil
	}
	return UsageError(Usage)
}

// upWord is `redlock up`: its nodes, once the nodes of an earlier
// `redlock up` are down (redlock down, which records their end).
func (l *Lab) upWord(ctx context.Context, env Env, args []string) error {
	n, kind, client, err := parseUp(args)
	if err != nil {
		return err
	}
	if err := l.Up(ctx, n, env.Clock(), kind); err != nil {
		return err
	}
	l.Use(client)
	fmt.Fprintf(env.Stdout(), "redlock: %d independent nodes up (%s), %s; a majority is %d%s\n",
		n, strings.Join(l.names(), " "), l.describe(), n/2+1, clientNote[client])
	return nil
}

// clientNote says who runs the algorithm, after `redlock up`'s line.
var clientNote = map[Client]string{Redsync: "; acquire and release run through go-redsync/redsync v4 (its go-redis v9 pool)"}

// parseUp reads `redlock up`'s flags: [--nodes N] [--real] [--client
// locklab|redsync].
func parseUp(args []string) (n int, kind Kind, client Client, err error) {
	n = 5
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--real":
			kind = Real
		case args[i] == "--nodes" && i+1 < len(args):
			i++
			if n, err = strconv.Atoi(args[i]); err != nil {
				return 0, 0, 0, UsageError(Usage)
			}
		case args[i] == "--client" && i+1 < len(args) && (args[i+1] == "redsync" || args[i+1] == "locklab"):
			i++
			if args[i] == "redsync" {
				client = Redsync
			}
		default:
			return 0, 0, 0, UsageError(Usage)
		}
	}
	return n, kind, client, nil
}

func (l *Lab) jumpWord(env Env, name, dur string) error {
	d, err := durationArg(ClockUsage, "", dur)
	if err != nil {
		return err
	}
	if dur[0] != '+' && dur[0] != '-' {
		return UsageError(ClockUsage)
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

func (l *Lab) restartWord(env Env, args []string) error {
	var delay time.Duration
	if len(args) == 3 && args[1] == "--delay" {
		d, err := durationArg(RestartUsage, "--delay", args[2])
		if err != nil {
			return err
		}
		if d < 0 {
			return UsageError(RestartUsage)
		}
		delay = d
	} else if len(args) != 1 {
		return UsageError(RestartUsage)
	}
	name, w := args[0], env.Stdout()
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
