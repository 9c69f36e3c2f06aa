package shell

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// newParser returns a parser for the lab language: POSIX mode, in which
// lower-case `select 1` and `time` stay simple commands (in bash mode the
// first is a syntax error and the second a keyword).
func newParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(false))
}

// Parse parses one entry or file. name prefixes error positions
// (`x.lab:3:7: ...`); it may be empty.
func Parse(src, name string) (*syntax.File, error) {
	return newParser().Parse(strings.NewReader(src), name)
}

// Incomplete reports whether src needs more lines before it can run: an
// open quote, an `if` without `fi`, a trailing `&&` or `|`, or a line that
// ends in `\` (which the parser alone does not flag).
func Incomplete(src string) bool {
	if src == "" {
		return false
	}
	if endsInContinuation(src) {
		return true
	}
	_, err := Parse(src, "")
	var perr syntax.ParseError
	return errors.As(err, &perr) && perr.Incomplete
}

// endsInContinuation reports whether the last line ends in an odd number
// of backslashes, i.e. in a `\` that escapes the newline.
func endsInContinuation(src string) bool {
	line := strings.TrimSuffix(src, "\n")
	n := len(line) - len(strings.TrimRight(line, "\\"))
	return n%2 == 1
}
