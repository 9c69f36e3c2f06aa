package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cliflags"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/session"
)

// redisCLIWord runs `redis-cli [flags] CMD ...` typed or in a script.
func (s *Shell) redisCLIWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	return s.redisCLI(ctx, hc, args[1:], cliflags.OutputAuto)
}

// redisCLI behaves like one run of the real redis-cli program: its own
// connection, its own flags over the lab's server, its output format
// chosen by where its stdout goes (auto) unless a flag or docker decides.
func (s *Shell) redisCLI(ctx context.Context, hc interp.HandlerContext, args []string, mode cliflags.Output) error {
	var o cliflags.Options
	o.Output = mode
	rest, err := cliflags.Parse(&o, args)
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return interp.ExitStatus(1)
	}
	if len(rest) == 0 {
		fmt.Fprintln(hc.Stderr, "locklab: redis-cli with no command would open a prompt, and you are at one: type the command itself (e.g. LLEN room:2pm:bookings)")
		return interp.ExitStatus(1)
	}
	t, err := session.NewTarget(&o, s.cfg.Sessions.Target)
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return interp.ExitStatus(1)
	}
	if o.StdinLastArg {
		if rest, err = appendStdin(hc, rest); err != nil {
			return err
		}
	}
	return s.redisCLIRepeat(ctx, hc, &o, t, rest)
}

func (s *Shell) redisCLIRepeat(ctx context.Context, hc interp.HandlerContext, o *cliflags.Options, t session.Target, args []string) error {
	name := sessionOf(ctx, hc)
	w := s.stdoutFor(hc, name)
	s.atStart(hc)
	var status error
	for i := range max(o.Repeat, 1) {
		if i > 0 && o.Interval > 0 {
			if err := (clock.Real{}).Sleep(ctx, o.Interval); err != nil {
				return err
			}
		}
		s.sending(name, args)
		e, err := s.cfg.Sessions.OneShot(ctx, t, name, args)
		if err != nil {
			return s.connFailed(ctx, hc, t, err)
		}
		s.deliver(hc, w, e, o.Output, o.ExitOnError)
		status = s.replyStatus(hc, args, e.Reply, o.ExitOnError)
	}
	return status
}

// appendStdin is redis-cli -x: the last argument is read from stdin.
func appendStdin(hc interp.HandlerContext, args []string) ([]string, error) {
	if hc.Stdin == nil {
		return append(args, ""), nil
	}
	data, err := io.ReadAll(hc.Stdin)
	if err != nil {
		return nil, fmt.Errorf("redis-cli -x: reading stdin: %w", err)
	}
	return append(args, string(data)), nil
}

// labContainers are the container names the lessons use for their Redis.
var labContainers = map[string]bool{"redis-lesson": true}

// docker understands the few docker commands the lessons use.
func (s *Shell) docker(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) < 2 {
		fmt.Fprintln(hc.Stderr, "locklab: docker: the lab knows `docker exec redis-lesson redis-cli CMD ...`")
		return interp.ExitStatus(1)
	}
	switch args[1] {
	case "exec":
		return s.dockerExec(ctx, hc, args[2:])
	case "run", "start", "compose", "ps", "stop", "rm", "restart", "kill", "pull":
		fmt.Fprintf(hc.Stderr, "locklab: no container needed: the lab already has a Redis (%s); "+
			"lesson commands like `docker exec redis-lesson redis-cli PING` reach it as they are.\n",
			describeTarget(s.cfg.Sessions.Target))
		return nil
	}
	fmt.Fprintf(hc.Stderr, "locklab: docker %s: not available in the lab; it knows `docker exec redis-lesson redis-cli ...`, and explains `docker run`.\n", args[1])
	return interp.ExitStatus(1)
}

// dockerExec is `docker exec [-i] [-t] CONTAINER redis-cli ...`. As with
// docker, -t gives redis-cli a terminal (TTY format); without it redis-cli
// prints raw.
func (s *Shell) dockerExec(ctx context.Context, hc interp.HandlerContext, args []string) error {
	tty, rest, err := dockerExecFlags(args)
	if err != nil || len(rest) < 2 {
		fmt.Fprintln(hc.Stderr, "locklab: usage: docker exec [-i] [-t] redis-lesson redis-cli [flags] CMD ...")
		return interp.ExitStatus(1)
	}
	if !labContainers[rest[0]] {
		fmt.Fprintf(hc.Stderr, "Error response from daemon: No such container: %s\n", rest[0])
		fmt.Fprintln(hc.Stderr, "hint: the lab's Redis container is called redis-lesson")
		return interp.ExitStatus(1)
	}
	if rest[1] != "redis-cli" {
		fmt.Fprintf(hc.Stderr, "locklab: docker exec %s %s: only redis-cli runs in the lab's container\n", rest[0], rest[1])
		return interp.ExitStatus(127)
	}
	mode := cliflags.OutputRaw
	if tty {
		mode = cliflags.OutputTTY
	}
	return s.redisCLI(ctx, hc, rest[2:], mode)
}

// dockerExecFlags reads docker exec's options and says whether -t was one.
func dockerExecFlags(args []string) (tty bool, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--tty" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 't')):
			tty = true
		case a == "-e" || a == "--env" || a == "-u" || a == "--user" || a == "-w" || a == "--workdir":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return tty, args[i:], nil
		}
	}
	return tty, nil, errors.New("no container given")
}

// describeTarget names the lab's server for a person: which kind, where.
func describeTarget(t session.Target) string {
	if t.Embedded {
		return "embedded, on " + t.Addr
	}
	return t.Addr
}
