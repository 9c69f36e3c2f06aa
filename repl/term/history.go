package term

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// secretWords mark an entry that may hold a secret in its text: AUTH,
// HELLO ... AUTH, ACL SETUSER, MIGRATE ... AUTH(2), CONFIG SET of the
// password settings, and redis-cli's -a/--pass/--askpass/--user (redis-cli
// keeps the same ones out of ~/.rediscli_history). It is a first look,
// for the entries that sent nothing: one with a syntax error, kept to be
// mended, or one whose secret went nowhere (redis-cli -apw, refused; ACL
// SETUSER u on >pw, where >pw is a redirection). What decides for an
// entry that ran is what it sent (repl/lang/shell). Quotes and backslashes
// are dropped before the look (AU""TH, A\UTH), and any character but a
// letter, a digit, _ and - ends a word ($(AUTH, ;AUTH, &&AUTH).
var secretWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^\w-])(auth|auth2|setuser|requirepass|masterauth|masteruser|tls-key-file-pass|tls-client-key-file-pass|-a|--pass|--askpass|--user|rediscli_auth)([^\w-]|$)`)
})

// gluedPassword matches redis-cli's -a with the password glued to it
// (redis-cli -apw), which redis-cli refuses, and so does locklab.
var gluedPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`redis-cli\s(.*\s)?-a\S`) })

// urlPassword matches a URL carrying a password: redis://user:pw@host.
var urlPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`://[^/\s@]*:[^/\s@]*@`) })

// unquoted drops the quotes and backslashes the shell would remove.
var unquoted = strings.NewReplacer(`'`, "", `"`, "", `\`, "")

// mayHoldSecret reports whether an entry's text holds a secret, at a
// first look (see secretWords).
func mayHoldSecret(entry string) bool {
	text := unquoted.Replace(entry)
	return secretWords().MatchString(text) || gluedPassword().MatchString(text) || urlPassword().MatchString(text)
}

// LineBreak stands for a line break in a history entry: the history file
// has one entry a line, and readline draws one line at a time, so a line
// break inside an entry (a Lua script over several lines, in quotes) is
// stored as ↵, and a line typed or recalled at the prompt has each ↵ read
// as a line break again (see Terminal.ReadLine).
const LineBreak = "↵"

// HistoryLine is how an entry is stored in the history file, and whether
// it may be stored at all (not when its text may hold a secret): on one
// line. A multi-line entry is printed on
// one line by the shell printer (continuation lines joined, an if ... fi
// with semicolons); a line break that is data (inside quotes) is stored
// as LineBreak, so that the entry comes back whole after a restart.
func HistoryLine(entry string) (string, bool) {
	if mayHoldSecret(entry) {
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
