package term

import (
	"slices"
	"strings"
	"unicode"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/lang/words"
)

// The colours of a line being typed, as iredis colours its input.
const (
	paintRedis   = "\x1b[33m" // a Redis command: yellow
	paintLab     = "\x1b[36m" // a lab word or a shell word: cyan
	paintUnknown = "\x1b[31m" // a first word that is neither, once typed: red
	paintSession = "\x1b[35m" // @NAME: magenta
	paintString  = "\x1b[32m" // a quoted string: green
	paintNumber  = "\x1b[34m" // a number: blue
	paintReset   = "\x1b[0m"
)

// Paint is line with colours, as it is typed: the command word of each
// command (a Redis command, a lab word, or red once a word that is
// neither is followed by a space), a session prefix @NAME, quoted strings
// and numbers. Only colours are added: the characters shown are the
// line's own, so readline's cursor stays where it belongs.
func Paint(line []rune) []rune {
	var out []rune
	first := true // the next word names a command
	for i := 0; i < len(line); {
		r := line[i]
		switch {
		case unicode.IsSpace(r):
			out, i = append(out, r), i+1
		case strings.ContainsRune(";&|(){}", r):
			out, i, first = append(out, r), i+1, true
		case r == '"' || r == '\'':
			end := quoteEnd(line, i)
			out, i, first = colour(out, paintString, line[i:end]), end, false
		default:
			end := wordEnd(line, i)
			word := string(line[i:end])
			code, command := wordColour(word, first, end < len(line))
			out, i, first = colour(out, code, line[i:end]), end, command
		}
	}
	return out
}

// wordColour is the colour of a word, and whether the word after it
// still names the command (after @NAME, or a redis-cli repeat count).
func wordColour(word string, first, typed bool) (string, bool) {
	switch {
	case first && strings.HasPrefix(word, "@") && len(word) > 1:
		return paintSession, true
	case first && isAssignment(word):
		return "", true // x=1 CMD: CMD is the command
	case isNumber(word):
		return paintNumber, first
	case !first:
		return "", false
	case words.Find(word) != nil || slices.Contains(words.Names(), word):
		return paintLab, false
	case commands.Get(word) != nil:
		return paintRedis, false
	case typed && isPlainWord(word):
		return paintUnknown, false
	}
	return "", false
}

func colour(out []rune, code string, text []rune) []rune {
	if code == "" {
		return append(out, text...)
	}
	out = append(out, []rune(code)...)
	out = append(out, text...)
	return append(out, []rune(paintReset)...)
}

// quoteEnd is the index after the quoted string that starts at i (the
// line's end while it is still open); a backslash escapes inside "...".
func quoteEnd(line []rune, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch {
		case q == '"' && line[j] == '\\':
			j++
		case line[j] == q:
			return j + 1
		}
	}
	return len(line)
}

// wordEnd is the index after the word that starts at i.
func wordEnd(line []rune, i int) int {
	for j := i; j < len(line); j++ {
		if unicode.IsSpace(line[j]) || strings.ContainsRune(";&|(){}\"'", line[j]) {
			return j
		}
	}
	return len(line)
}

func isNumber(w string) bool {
	w = strings.TrimPrefix(w, "-")
	return w != "" && strings.Trim(w, "0123456789.") == "" && strings.Count(w, ".") <= 1 && w != "."
}

// isPlainWord says a word is a name as typed, not one the shell makes at
// run time ($x, a path, an assignment), which only running can judge.
func isPlainWord(w string) bool {
	return !strings.ContainsAny(w, "$=/`*?[~.\\")
}

// isAssignment is NAME=VALUE, which a command may start with.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && name != "" && strings.TrimFunc(name, func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }) == ""
}
