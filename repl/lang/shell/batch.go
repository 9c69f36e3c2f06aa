package shell

import (
	"context"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/words"
)

// plainCommand reports whether a statement is nothing but one Redis
// command with literal arguments (no variables, substitutions,
// redirections, braces or jobs), and returns its words. Such statements
// may be sent in a batch: with nothing of the shell between them,
// pipelining them changes nothing but the speed.
func (s *Shell) plainCommand(st *syntax.Stmt) ([]string, bool) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		if args[i], ok = words.Literal(w); !ok {
			return nil, false
		}
	}
	// A word only the redis-cli stand-in rule sends to Redis (lower case,
	// unknown) may be a function the input defined: the interpreter decides.
	if words.Classify(args, words.Lang).Kind != words.Redis || !batchable(args) {
		return nil, false
	}
	return args, true
}

// batchable reports whether a Redis command may share a pipeline. Those
// sent alone may end the connection (a failed pipeline loses the replies
// that came before the failure), change how later replies are read
// (unbatchable, and the streams: commands.Streams), or block (a Ctrl-C
// that cuts a blocked pipeline would lose the commands queued behind it:
// commands.Blocks).
func batchable(args []string) bool {
	return !unbatchable[strings.ToUpper(args[0])] && !commands.Streams(args) && !commands.Blocks(args)
}

// unbatchable are the commands, neither streams nor blocking, that may
// end the connection or change how it reads replies.
var unbatchable = map[string]bool{
	"SHUTDOWN": true, "QUIT": true, "RESET": true, "CLIENT": true, "DEBUG": true,
	"HELLO": true, "AUTH": true, "REPLICAOF": true, "SLAVEOF": true, "FAILOVER": true,
	"SYNC": true, "PSYNC": true,
}

// runBatch sends plain commands (see plainCommand) in the main session as
// one pipeline and prints their replies in order, exactly as running them
// one by one would.
func (s *Shell) runBatch(ctx context.Context, batch [][]string) error {
	for _, args := range batch {
		s.obs.Sending(session.Main, args)
	}
	events, err := s.cfg.Sessions.Get(session.Main).DoBatch(ctx, batch)
	stdout, stderr := s.out.Writers(session.Main)
	e := &env{s: s, ctx: ctx}
	e.hc.Stdout, e.hc.Stderr = stdout, stderr
	var status error
	for _, ev := range events {
		s.obs.Deliver(stderr, stdout, ev, s.cfg.Flags.Output, s.cfg.Flags.ExitOnError)
		status = s.replied(e, session.Main, ev.Args, ev.Reply, s.cfg.Flags.ExitOnError)
	}
	if err != nil {
		status = words.ConnFailed(ctx, stderr, s.cfg.Sessions.Target, err)
	}
	return status
}
