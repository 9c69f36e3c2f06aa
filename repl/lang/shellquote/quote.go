package shellquote

import (
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// plain are the characters a word needs no quotes for.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-"

// Word is s as one shell word: as it is when it needs no quotes, else
// quoted as bash reads it back; what syntax.Quote will not take (invalid
// UTF-8) in single quotes, in which nothing expands.
func Word(s string) string {
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	if q, err := syntax.Quote(s, syntax.LangBash); err == nil {
		return q
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// LabWord is s as one word of the lab language, which reads POSIX sh:
// as Word quotes it, but in single quotes where Word would use bash's
// $'...' (a control character, a line break: they stay as they are
// inside single quotes).
func LabWord(s string) string {
	if q := Word(s); !strings.HasPrefix(q, "$'") {
		return q
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Line is words as one command line, each quoted where it must be.
func Line(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Word(w)
	}
	return strings.Join(quoted, " ")
}

// OneLine is s with its line breaks and other control characters escaped
// as Go writes them (\n, \r, \x1b), so that it stays on one line.
func OneLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
