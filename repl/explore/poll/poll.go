package poll

import (
	"slices"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// Answer is a command a session sent, and what the server answered.
type Answer struct {
	Args  []string
	Reply string // the reply as resp writes it (resp.Reply.String)
	OK    bool   // a reply came (false: an error of the connection, a cut turn)
	None  bool   // the reply says the command changed nothing (see Of)
}

// Of is the answer of the command args, as its event e has it.
func Of(args []string, e session.Event) Answer {
	a := Answer{Args: args}
	if e.Err != nil {
		return a
	}
	a.Reply, a.OK = e.Reply.String(), true
	a.None = changedNothing(args, e.Reply)
	return a
}

// Repeats reports whether now repeats last as a poll does: the same
// command, the same reply, and a reply that says it changed nothing.
func Repeats(last, now Answer) bool {
	return last.OK && now.OK && now.None && last.Reply == now.Reply && slices.Equal(last.Args, now.Args)
}

// changedNothing reports whether the reply shows that the command changed
// nothing on the server: the command table calls it read-only, or it is a
// write whose reply is a null (SET ... NX while the key exists, GETDEL
// of no key). A write answered otherwise may have changed something even
// when its reply repeats (PEXPIRE refreshing a lock answers 1 each time),
// and a command that is neither (EVAL, MULTI) says nothing by its flags.
func changedNothing(args []string, r resp.Reply) bool {
	c, _ := commands.Lookup(args)
	switch {
	case c == nil:
		return false
	case c.Is(commands.FlagReadonly):
		return true
	}
	return c.Is(commands.FlagWrite) && r.Kind == resp.Nil
}
