package words

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/session"
)

// redisCLIWord runs `redis-cli [flags] CMD ...` typed or in a script.
func redisCLIWord(ctx context.Context, env Env, args []string) error {
	return redisCLI(ctx, env, args[1:], cliflags.OutputAuto)
}

// redisCLI behaves like one run of the real redis-cli program: its own
// connection, its own flags over the lab's server, its output format
// chosen by where its stdout goes (auto) unless a flag or docker decides.
func redisCLI(ctx context.Context, env Env, args []string, mode cliflags.Output) error {
	var o cliflags.Options
	o.Output = mode
	rest, err := cliflags.Parse(&o, args)
	if err != nil {
		return Bare("%v", err)
	}
	if names := hostFileOptions(&o); names != "" {
		return Failf("redis-cli: %s: the lab's redis-cli reads no host file and dials no host socket; give them to locklab itself (locklab --tls --cacert FILE ..., locklab -s SOCKET), whose connections the lab's commands use", names)
	}
	if len(rest) == 0 {
		return Failf("redis-cli with no command would open a prompt, and you are at one: type the command itself (e.g. LLEN room:2pm:bookings)")
	}
	t, err := session.NewTarget(&o, env.Sessions().Target)
	if err != nil {
		return Bare("%v", err)
	}
	if o.Set["password"] {
		session.SentSecret(ctx) // its connection opens with AUTH and the password of -a, --pass or -u
	}
	if o.StdinLastArg {
		if rest, err = appendStdin(env.Stdin(), rest); err != nil {
			return err
		}
	}
	return redisCLIRepeat(ctx, env, &o, t, rest)
}

// hostFileOptions names the options of a redis-cli line that would open a
// host file or socket (whatever spelling set them: -s, a unix:// URL,
// --cacert ...), or "".
func hostFileOptions(o *cliflags.Options) string {
	var names []string
	for _, opt := range []struct{ name, value string }{{"-s", o.Socket}, {"--cacert", o.CACert}, {"--cert", o.Cert}, {"--key", o.Key}} {
		if opt.value != "" {
			names = append(names, opt.name)
		}
	}
	return strings.Join(names, ", ")
}

func redisCLIRepeat(ctx context.Context, env Env, o *cliflags.Options, t session.Target, args []string) error {
	name := env.Session()
	var status error
	for i := range max(o.Repeat, 1) {
		if i > 0 && o.Interval > 0 {
			if err := env.Clock().Sleep(ctx, o.Interval); err != nil {
				return err
			}
		}
		env.Sending(name, args)
		e, err := env.Sessions().OneShot(ctx, t, name, args)
		if err != nil {
			return env.ConnFailed(ctx, t, err)
		}
		status = env.Deliver(e, o.Output, o.ExitOnError)
	}
	return status
}

// appendStdin is redis-cli -x: the last argument is read from stdin.
func appendStdin(stdin io.Reader, args []string) ([]string, error) {
	if stdin == nil {
		return append(args, ""), nil
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, Failf("redis-cli -x: reading stdin: %v", err)
	}
	return append(args, string(data)), nil
}

// labContainers are the container names the lessons use for their Redis.
var labContainers = map[string]bool{"redis-lesson": true}

// docker understands the few docker commands the lessons use.
func docker(ctx context.Context, env Env, args []string) error {
	if len(args) < 2 {
		return Failf("docker: the lab knows `docker exec redis-lesson redis-cli CMD ...`")
	}
	switch args[1] {
	case "exec":
		return dockerExec(ctx, env, args[2:])
	case "run", "start", "compose", "ps", "stop", "rm", "restart", "kill", "pull":
		fmt.Fprintf(env.Stderr(), "locklab: no container needed: the lab already has a Redis (%s); "+
			"lesson commands like `docker exec redis-lesson redis-cli PING` reach it as they are.\n",
			describeTarget(env.Sessions().Target))
		return nil
	}
	return Failf("docker %s: not available in the lab; it knows `docker exec redis-lesson redis-cli ...`, and explains `docker run`.", args[1])
}

// dockerExec is `docker exec [-i] [-t] CONTAINER redis-cli ...`. As with
// docker, -t gives redis-cli a terminal (TTY format); without it redis-cli
// prints raw.
func dockerExec(ctx context.Context, env Env, args []string) error {
	tty, rest, err := cliflags.DockerExecFlags(args)
	if err != nil || len(rest) < 2 {
		return Failf("usage: docker exec [-i] [-t] redis-lesson redis-cli [flags] CMD ...")
	}
	if !labContainers[rest[0]] {
		fmt.Fprintf(env.Stderr(), "Error response from daemon: No such container: %s\n", rest[0])
		fmt.Fprintln(env.Stderr(), "hint: the lab's Redis container is called redis-lesson")
		return Status(1)
	}
	if rest[1] != "redis-cli" {
		return &Error{Status: 127, Msg: fmt.Sprintf("docker exec %s %s: only redis-cli runs in the lab's container", rest[0], rest[1])}
	}
	mode := cliflags.OutputRaw
	if tty {
		mode = cliflags.OutputTTY
	}
	return redisCLI(ctx, env, rest[2:], mode)
}

// describeTarget names the lab's server for a person: which kind, where.
func describeTarget(t session.Target) string {
	if t.Embedded {
		return "embedded, on " + t.Addr
	}
	return t.Addr
}
