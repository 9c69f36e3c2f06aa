package lines

import (
	"regexp"
	"sync"
)

// transcriptLine matches a line of the lesson's output pasted as if it
// were a command: `bob: booked (saw count=0)`, a note, a verdict.
var transcriptLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([\w.-]+: |↳|verdict:)`)
})

// PasteHint says what a pasted entry that is not a command is, when it
// can tell: a line of the lesson's output. "" when it cannot. (Lua pasted
// alone is the lab's to tell: shell.Config.Hint, scripts.LuaHint.)
func PasteHint(entry string) string {
	if transcriptLine().MatchString(entry) {
		return "hint: this looks like output of the lesson, not a command"
	}
	return ""
}
