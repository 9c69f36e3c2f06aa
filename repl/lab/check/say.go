package check

import (
	"fmt"
	"strings"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Say formats a line of the lab's own words (a note, a finding) as
// fmt.Sprintf does, with every string argument shown as resp.Printable
// shows it: keys, tokens, session names and list members come from the
// server or from whoever named them, and one holding a control character
// must not move the cursor, retitle the window or start a line of its own
// (a forged "verdict: ALL CLEAR"). A []string argument is a list: its
// members, each shown so, joined by ", ". Use %s for them (%q would quote
// again).
//
// This is where a value enters the lab's text, for every package that
// words one (check, quorum, redlock, timeline, the macros' lines).
// Printable leaves what it returns as it is, so a text made with Say may
// be an argument of another Say.
func Say(format string, args ...any) string {
	shown := make([]any, len(args))
	for i, arg := range args {
		switch v := arg.(type) {
		case string:
			shown[i] = resp.Printable(v)
		case []string:
			members := make([]string, len(v))
			for j, m := range v {
				members[j] = resp.Printable(m)
			}
			shown[i] = strings.Join(members, ", ")
		default:
			shown[i] = arg
		}
	}
	return fmt.Sprintf(format, shown...)
}
