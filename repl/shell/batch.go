package shell

import (
	"context"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/session"
)

// Plain reports whether an entry is nothing but one Redis command with
// literal arguments (no variables, substitutions, redirections, braces or
// jobs), and returns its words. Such entries may be sent in a batch: with
// nothing of the shell between them, pipelining them changes nothing but
// the speed.
func Plain(src string) ([]string, bool) {
	f, err := Parse(Normalize(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		if args[i], ok = literal(w); !ok {
			return nil, false
		}
	}
	if !sentAsIs(args[0]) || unbatchable[strings.ToUpper(args[0])] {
		return nil, false
	}
	return args, true
}

// unbatchable commands are sent alone: they may end the connection (a
// failed pipeline loses the replies that came before the failure) or
// change how later replies are read.
var unbatchable = map[string]bool{
	"SHUTDOWN": true, "QUIT": true, "RESET": true, "CLIENT": true, "DEBUG": true,
	"MONITOR": true, "SUBSCRIBE": true, "PSUBSCRIBE": true, "SSUBSCRIBE": true,
	"HELLO": true, "AUTH": true, "REPLICAOF": true, "SLAVEOF": true, "FAILOVER": true,
	"SYNC": true, "PSYNC": true,
}

// sentAsIs reports whether a command word goes straight to Redis.
func sentAsIs(name string) bool {
	switch name {
	case "echo", "wait", "exit", "quit", "source", ".", "set", "eval", "exec", "type", "command", "time", "select", "test", "[":
		return name != strings.ToLower(name) // the clashing names only in upper case
	}
	return wordIndex[name] == nil && isRedisCommand(name) && !isCount(name) && !strings.HasPrefix(name, "@")
}

// literal is a word's value if it has no expansion of any kind.
func literal(w *syntax.Word) (string, bool) {
	plain := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob, *syntax.BraceExp:
			plain = false
		case *syntax.Lit:
			if strings.ContainsAny(n.Value, "{~") {
				plain = false // brace or tilde expansion: leave it to the interpreter
			}
		}
		return plain
	})
	if !plain {
		return "", false
	}
	s, err := expand.Literal(&expand.Config{}, w)
	return s, err == nil
}

// RunBatch sends plain commands (see Plain) in the main session as one
// pipeline and prints their replies in order, exactly as running them one
// by one would.
func (s *Shell) RunBatch(ctx context.Context, batch [][]string) error {
	for _, args := range batch {
		s.sending(session.Main, args)
	}
	events, err := s.cfg.Sessions.Get(session.Main).DoBatch(ctx, batch)
	hc := interp.HandlerContext{Stdout: s.out, Stderr: s.errOut}
	var status error
	for _, e := range events {
		s.deliver(hc, s.out, e, s.cfg.Flags.Output, s.cfg.Flags.ExitOnError)
		status = s.replyStatus(hc, e.Args, e.Reply, s.cfg.Flags.ExitOnError)
	}
	if err != nil {
		status = s.connFailed(ctx, hc, s.cfg.Sessions.Target, err)
	}
	s.mu.Lock()
	s.lastStatus = asStatus(status)
	s.mu.Unlock()
	return status
}
