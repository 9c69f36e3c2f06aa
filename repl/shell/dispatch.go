package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/commands"
	"github.com/locklab/locklab/repl/session"
)

// Internal command words the call handler rewrites to. They start with a
// NUL byte, which no word typed or read from a file can contain.
const (
	redisWord = "\x00redis" // the rest is a Redis command, sent as typed
	runWord   = "\x00run"   // the rest is a script file and its arguments
	helpWord  = "\x00help"  // the lab's help, in place of the interpreter's
)

// sessionVar names, in a job's environment, the session its Redis
// commands go to.
const sessionVar = "LOCKLAB_SESSION"

// call sees every simple command before the interpreter's builtins do, and
// resolves the names Redis and the shell share: upper case is always Redis
// (no builtin is upper case); lower case is Redis too, except echo, wait
// and `set -e`-style option setting, which stay the shell's.
func (s *Shell) call(ctx context.Context, args []string) ([]string, error) {
	switch args[0] {
	case "eval", "exec", "type", "command", "time", "select":
		return append([]string{redisWord}, args...), nil
	case "set":
		if len(args) > 1 && (strings.HasPrefix(args[1], "-") || strings.HasPrefix(args[1], "+")) {
			return args, nil
		}
		return append([]string{redisWord}, args...), nil
	case "help":
		return append([]string{helpWord}, args[1:]...), nil // not the interpreter's own help
	case "quit":
		return append([]string{"exit"}, args[1:]...), nil
	case "source", ".":
		return append([]string{runWord}, args[1:]...), nil
	}
	return args, nil
}

// execMiddleware replaces the interpreter's exec handler entirely: it
// never calls next, so no host program can ever start.
func (s *Shell) execMiddleware(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return s.dispatch
}

// dispatch decides what a command word means and runs it.
func (s *Shell) dispatch(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	name := args[0]
	switch {
	case name == redisWord:
		return s.redis(ctx, hc, args[1:])
	case strings.HasPrefix(name, "@"):
		return s.inSession(ctx, name[1:], args[1:])
	case wordIndex[name] != nil:
		return wordIndex[name].run(s, ctx, hc, args)
	case strings.Contains(name, "/"):
		return s.runScript(ctx, hc, name, args[1:])
	case isCount(name) && len(args) > 1:
		return s.repeat(ctx, args)
	case isRedisCommand(name):
		return s.redis(ctx, hc, args)
	}
	fmt.Fprintf(hc.Stderr, "locklab: %s: not a lab command (host programs never run here; type help for what does)\n", name)
	return interp.ExitStatus(127)
}

// isRedisCommand reports whether a word is sent to Redis: a command of the
// static table in any case, or any word with an upper-case letter or a dot
// (module commands such as JSON.SET), so that Redis itself answers for
// commands it does not know. Lower-case unknown words (rm, curl) are host
// programs and are refused.
func isRedisCommand(name string) bool {
	if strings.Contains(name, "/") {
		return false // a path: a script or a host program, never Redis
	}
	if cmd, _ := commands.Lookup([]string{name}); cmd != nil {
		return true
	}
	return strings.ContainsFunc(name, unicode.IsUpper) || strings.Contains(name, ".")
}

func isCount(word string) bool {
	n, err := strconv.Atoi(word)
	return err == nil && n > 0
}

// repeat runs `N CMD ...` N times, as redis-cli does.
func (s *Shell) repeat(ctx context.Context, args []string) error {
	n, _ := strconv.Atoi(args[0])
	var err error
	for range n {
		if err = s.dispatch(ctx, args[1:]); ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return err
}

type sessionKey struct{}

// inSession runs a command in session name (`@alice SET k v`).
func (s *Shell) inSession(ctx context.Context, name string, args []string) error {
	hc := interp.HandlerCtx(ctx)
	if !nameChars.MatchString(name) || len(args) == 0 {
		fmt.Fprintln(hc.Stderr, "locklab: usage: @NAME COMMAND [ARG ...]   (e.g. @alice SET lock:demo alice-token NX PX 5000; NAME is a letter, then letters, digits, - or _)")
		return interp.ExitStatus(2)
	}
	if args[0] == "on" {
		return s.onNode(ctx, name, args[1:])
	}
	return s.dispatch(context.WithValue(ctx, sessionKey{}, name), args)
}

// sessionOf is the session a command runs in: an @NAME prefix first, then
// the job's session, then main.
func sessionOf(ctx context.Context, hc interp.HandlerContext) string {
	if name, ok := ctx.Value(sessionKey{}).(string); ok {
		return name
	}
	if v := hc.Env.Get(sessionVar); v.IsSet() {
		if v.String() == "" {
			return "job" // a job named by an empty word (`book $w &`, $w unset)
		}
		return v.String()
	}
	return session.Main
}
