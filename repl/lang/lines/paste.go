package lines

import (
	"regexp"

	"github.com/locklab/locklab/repl/lab/scripts"
)

// transcriptLine matches a line of the lesson's output pasted as if it
// were a command: `bob: booked (saw count=0)`, a note, a verdict.
var transcriptLine = regexp.MustCompile(`^\s*([\w.-]+: |↳|verdict:)`)

// lessonEval is the lesson's own line that runs its Lua release.
var lessonEval = `EVAL "` + scripts.Release.Body + `" 1 lock:demo my-token`

// PasteHint says what a pasted entry that is not a command is, when it
// can tell: Lua from the lesson (to be run with EVAL), or a line of the
// lesson's output. "" when it cannot.
func PasteHint(entry string) string {
	switch {
	case scripts.IsLua(entry):
		return "hint: this is Lua: run it with EVAL '...' 1 KEY ARG, as the lesson does:\n  " + lessonEval
	case transcriptLine.MatchString(entry):
		return "hint: this looks like output of the lesson, not a command"
	}
	return ""
}
