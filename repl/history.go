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

// HistoryLine is how an entry is stored in the history file, and whether
// it may be stored at all. Continuation lines are joined; other
// multi-line entries (an if ... fi) are printed on one line by the shell
// printer, so that the line-based history file gives them back whole.
func HistoryLine(entry string) (string, bool) {
	if secretWords().MatchString(entry) || urlPassword().MatchString(entry) {
		return "", false
	}
	line := strings.TrimSpace(strings.ReplaceAll(entry, "\\\n", ""))
	if !strings.Contains(line, "\n") {
		return line, true
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	if err != nil {
		return strings.ReplaceAll(line, "\n", " "), true
	}
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, f)
	return strings.TrimSpace(b.String()), true
}
