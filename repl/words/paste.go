package words

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// transcriptLine matches a line of the lesson's output pasted as if it
// were a command: `bob: booked (saw count=0)`, a note, a verdict.
var transcriptLine = regexp.MustCompile(`^\s*([\w.-]+: |↳|verdict:)`)

// lessonEval is the lesson's own line that runs its Lua release.
const lessonEval = `EVAL "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end" 1 lock:demo my-token`

// PasteHint says what a pasted entry that is not a command is, when it
// can tell: Lua from the lesson (to be run with EVAL), or a line of the
// lesson's output. "" when it cannot.
func PasteHint(entry string) string {
	switch {
	case strings.Contains(entry, "redis.call(") || strings.Contains(entry, "redis.pcall("):
		return "hint: this is Lua: run it with EVAL '...' 1 KEY ARG, as the lesson does:\n  " + lessonEval
	case transcriptLine.MatchString(entry):
		return "hint: this looks like output of the lesson, not a command"
	}
	return ""
}

// Positionals is the highest $1..$9 a script or entry uses outside its
// functions: a lesson
// script run without its argument books "" (`./book_no_lock.sh` alone).
func Positionals(node syntax.Node) int {
	most := 0
	syntax.Walk(node, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.FuncDecl); ok {
			return false // a function's $1 is its own argument
		}
		if pe, ok := n.(*syntax.ParamExp); ok && len(pe.Param.Value) == 1 && pe.Param.Value >= "1" && pe.Param.Value <= "9" {
			most = max(most, int(pe.Param.Value[0]-'0'))
		}
		return true
	})
	return most
}

// MissingArgs warns that what runs uses $N with fewer arguments given.
func MissingArgs(what string, uses, given int) string {
	return fmt.Sprintf("locklab: %s uses $%d but was given %d argument(s): $%d is empty here (pass it: %s ARG ...)", what, uses, given, uses, what)
}
