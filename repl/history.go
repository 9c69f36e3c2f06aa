package repl

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// secretWords mark an entry that must never reach the history file: AUTH,
// HELLO ... AUTH, ACL SETUSER, MIGRATE ... AUTH(2), CONFIG SET of the
// password settings, and redis-cli's -a/--pass/--askpass (redis-cli keeps
// the same ones out of ~/.rediscli_history).
var secretWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s"'=])(auth|auth2|setuser|requirepass|masterauth|masteruser|-a|--pass|--askpass|--user|rediscli_auth)([\s"'=]|$)`)
})

// urlPassword matches a URL carrying a password: redis://user:pw@host.
var urlPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`://[^/\s@]*:[^/\s@]*@`) })

// LineBreak stands for a line break in a history entry: the history file
// has one entry a line, and readline draws one line at a time, so a line
// break inside an entry (a Lua script over several lines, in quotes) is
// stored as ↵, and a line typed or recalled at the prompt has each ↵ read
// as a line break again (see Terminal.ReadLine).
const LineBreak = "↵"

// HistoryLine is how an entry is stored in the history file, and whether
// it may be stored at all: on one line. A multi-line entry is printed on
// one line by the shell printer (continuation lines joined, an if ... fi
// with semicolons); a line break that is data (inside quotes) is stored
// as LineBreak, so that the entry comes back whole after a restart.
func HistoryLine(entry string) (string, bool) {
	if secretWords().MatchString(entry) || urlPassword().MatchString(entry) {
		return "", false
	}
	line := strings.TrimSpace(entry)
	if strings.Contains(line, "\n") {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
		if err == nil { // else (a syntax error, kept to be mended) as typed
			var b strings.Builder
			syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, f)
			line = strings.TrimSpace(b.String())
		}
	}
	return strings.ReplaceAll(line, "\n", LineBreak), true
}
