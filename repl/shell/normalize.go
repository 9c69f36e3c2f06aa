package shell

import (
	"regexp"
	"strings"
)

// promptPrefix matches the prompts that lessons and terminals put in front
// of a command: a shell's "$ ", redis-cli's "127.0.0.1:6379> " (with its
// "[db]" and "(TX)"), the docs' "redis> ", and locklab's own prompts.
var promptPrefix = regexp.MustCompile(
	`^(\$ |(redis|embedded|not connected|[\w.-]+:\d+)(\[\d+\])?(\(TX\))?> )`)

// Normalize drops a pasted prompt from the front of each line of an entry
// that starts a command. Lines continuing an open quote or a trailing `\`
// are left alone: inside a Lua script "$ " is data.
func Normalize(src string) string {
	if !strings.Contains(src, "$ ") && !strings.Contains(src, "> ") {
		return src // no prompt anywhere: nothing to do
	}
	var b, entry strings.Builder // entry: the lines of the current entry
	for _, line := range strings.SplitAfter(src, "\n") {
		if !Incomplete(entry.String()) {
			entry.Reset()
			line = promptPrefix.ReplaceAllString(line, "")
		}
		entry.WriteString(line)
		b.WriteString(line)
	}
	return b.String()
}
