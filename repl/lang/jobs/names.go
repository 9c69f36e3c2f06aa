package jobs

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/words"
)

// JobName is the session a background job running words is named after:
// `@bob CMD` is bob, `book carol` (a bidder's macro) is carol,
// `./book.sh alice` is alice (the lesson's bidder), `./x.sh` is x, a
// function's `bid dave` is dave; "" when the words name none, or name
// main.
func JobName(line []string) string {
	if name := namedBy(line); name != session.Main {
		return name
	}
	return "" // a job never shares main's connection
}

// namedBy is JobName's pick, main included.
func namedBy(line []string) string {
	c := words.Classify(line, words.Lang)
	switch {
	case c.Kind == words.Session:
		name, _ := words.SessionName(c.Name)
		return name
	case c.Kind == words.Script && c.Word != nil:
		if len(line) > 1 {
			return scriptJobName(line[1:]) // run, source, bash, sh FILE
		}
		return "" // the file is known only at run time (run $f &)
	case c.Kind == words.Script:
		return scriptJobName(line)
	case c.Kind == words.Macro && c.Word.Bidder && len(line) > 1 && words.ValidName(line[1]):
		return line[1]
	case c.Kind == words.Unknown && len(line) > 1 && words.ValidName(line[1]):
		return line[1] // a function of the script's: its first argument, as a script's (bid alice &)
	}
	return ""
}

// scriptJobName names a job running a script file: after its first
// argument (the lesson's bidder: ./book_no_lock.sh alice), else after the
// file (./x.sh is x).
func scriptJobName(line []string) string {
	if len(line) > 1 && words.ValidName(line[1]) {
		return line[1]
	}
	return strings.TrimSuffix(path.Base(line[0]), path.Ext(line[0]))
}

// NamedByArgument reports whether a job running first is named after its
// first argument (a bidder's macro, a script path, a function), so that a
// job whose argument is only known at run time (`book $w &`) is named
// then.
func NamedByArgument(first string) bool {
	c := words.Classify([]string{first, ""}, words.Lang)
	return (c.Kind == words.Script && strings.Contains(first, "/")) || (c.Kind == words.Macro && c.Word.Bidder) ||
		c.Kind == words.Unknown // a function of the script's (for w in a b; do bid "$w" & done)
}

// Starts reports whether node starts a background job.
func Starts(node syntax.Node) bool {
	found := false
	syntax.Walk(node, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok && st.Background {
			found = true
		}
		return !found
	})
	return found
}

// Calls reports whether node runs the command word name anywhere.
func Calls(node syntax.Node, name string) bool {
	found := false
	syntax.Walk(node, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 && call.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}
