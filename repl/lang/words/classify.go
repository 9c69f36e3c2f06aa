package words

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/locklab/locklab/repl/cli/commands"
)

// Class is what Classify decided about a command line.
type Class struct {
	Kind Kind
	// Name is the word to run: the typed one, or what it stands for
	// (quit is exit).
	Name string
	Word *Word // the table's entry, for Lab and Macro
	// Refusal, when set, is why the line must not run: a shell word the
	// lab refuses (cd, set +f, trap, builtin eval: see shellWords).
	Refusal *Error
}

// Mode says where a line comes from, which changes one rule: where
// locklab stands in for redis-cli (a command given as arguments, piped
// input), an unknown word goes to the server as redis-cli would send it;
// in the REPL, scripts and -c it is refused.
type Mode int

const (
	Lang    Mode = iota // the lab language: REPL, scripts, -c
	StandIn             // locklab as redis-cli
)

// sharedNames are the words Redis and the shell both have. Upper case is
// always Redis; in lower case these are Redis too, except echo and wait
// (the shell's job wait), and set when its first argument is an option
// (`set -e`, `set +f`).
var sharedNames = map[string]bool{
	"set": true, "eval": true, "exec": true, "type": true, "command": true,
	"time": true, "select": true, "echo": false, "wait": false,
}

// shellAliases are shell words the lab spells otherwise.
var shellAliases = map[string]string{"quit": "exit"}

// Classify says what a command line's first word means.
func Classify(args []string, mode Mode) Class {
	c := classify(args, mode)
	if c.Kind != Shell {
		return c
	}
	c.Refusal = shellRefusal(args)
	return c
}

func classify(args []string, mode Mode) Class {
	if len(args) == 0 {
		return Class{Kind: Unknown}
	}
	name := args[0]
	if redis, shared := sharedNames[name]; shared {
		if !redis || (name == "set" && len(args) > 1 && isOption(args[1])) {
			return Class{Kind: Shell, Name: name}
		}
		return Class{Kind: Redis, Name: name}
	}
	if w := Find(name); w != nil {
		return Class{Kind: w.Kind, Name: name, Word: w}
	}
	return classifyOther(name, len(args), mode)
}

// classifyOther classifies a word that is neither shared nor in the table.
func classifyOther(name string, nargs int, mode Mode) Class {
	switch {
	case shellAliases[name] != "":
		return Class{Kind: Shell, Name: shellAliases[name]}
	case strings.HasPrefix(name, "@"):
		return Class{Kind: Session, Name: name}
	case strings.Contains(name, "/"):
		return Class{Kind: Script, Name: name}
	case isCount(name) && nargs > 1:
		return Class{Kind: Repeat, Name: name}
	case isShellWord(name):
		return Class{Kind: Shell, Name: name}
	case isRedisName(name) || mode == StandIn:
		return Class{Kind: Redis, Name: name}
	}
	return Class{Kind: Unknown, Name: name}
}

func isOption(arg string) bool { return strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, "+") }

// isRedisName reports whether the lab language sends a word to Redis: a
// command of the static table in any case, or any word with an upper-case
// letter or a dot (module commands such as JSON.SET), so that Redis
// itself answers for commands it does not know. Lower-case unknown words
// (rm, curl) are host programs.
func isRedisName(name string) bool {
	if cmd, _ := commands.Lookup([]string{name}); cmd != nil {
		return true
	}
	return hasUpper(name) || strings.Contains(name, ".")
}

func hasUpper(s string) bool { return strings.ContainsFunc(s, unicode.IsUpper) }

func isCount(word string) bool {
	n, err := strconv.Atoi(word)
	return err == nil && n > 0
}

// SessionName is NAME of an `@NAME` word, if it is a valid session name.
func SessionName(word string) (string, bool) {
	name, ok := strings.CutPrefix(word, "@")
	return name, ok && ValidName(name)
}

var nameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][\w-]{0,31}$`) })

// ValidName reports whether name may name a session.
func ValidName(name string) bool { return nameChars().MatchString(name) }
