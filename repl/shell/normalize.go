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
	lines := strings.SplitAfter(src, "\n")
	var b strings.Builder
	for _, line := range lines {
		if !Incomplete(b.String()) {
			line = promptPrefix.ReplaceAllString(line, "")
		}
		b.WriteString(line)
	}
	return b.String()
}
