package capture

import (
	"strings"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// Expect is the line that checks a reply to args, in the lab's words
// (without the session prefix), or a comment when the reply cannot be
// expected as it was (see the package doc); sent says whether the run
// itself sent a value before.
func Expect(args []string, r resp.Reply, sent func(string) bool) string {
	cmd, _ := commands.Lookup(args)
	name := strings.ToUpper(args[0])
	switch {
	case r.IsError():
		return "# an error (its text differs between servers): " + oneLine(r.Str)
	case r.Kind == resp.Status && (r.Str == "OK" || r.Str == "PONG" || r.Str == "QUEUED"):
		return "expect reply " + quote(r.Str)
	case cmd != nil && (cmd.Group == "server" || cmd.Group == "connection" || cmd.Group == "cluster"):
		return "# " + name + "'s reply differs between servers and runs: not expected"
	case r.Kind == resp.Int && (name == "TTL" || name == "PTTL") && r.Int > 0:
		return "expect reply -gt 0"
	case r.Kind == resp.Int || r.Kind == resp.Nil || r.Kind == resp.Status || r.Kind == resp.Bool || r.Kind == resp.Double:
		return "expect reply " + quote(rawText(r))
	case r.Kind == resp.Bulk && sent(r.Str):
		return "expect reply " + quote(r.Str)
	case r.Kind == resp.Bulk:
		return "expect reply != ''"
	case isArray(r) && ordered(cmd):
		return "expect reply " + quote(rawText(r))
	}
	return "# " + name + "'s reply comes in the server's own order: not expected"
}

// ordered reports whether an array reply's order is the data's (a list,
// a sorted set, MGET, a transaction) rather than the server's (a set, a
// hash, the keyspace).
func ordered(cmd *commands.Command) bool {
	if cmd == nil {
		return false
	}
	switch cmd.Group {
	case "set", "hash", "generic", "pubsub", "stream", "geo", "server", "connection", "cluster", "scripting":
		return false
	}
	return true
}

func isArray(r resp.Reply) bool {
	return r.Kind == resp.Array || r.Kind == resp.Set || r.Kind == resp.Map
}

// rawText is a reply as `expect reply` compares it (a nil is "").
var rawText = record.RawText

// quote is s as one word of the lab language.
var quote = shellquote.LabWord

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
