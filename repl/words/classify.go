package words

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cliflags"
	"github.com/locklab/locklab/repl/commands"
)

// Class is what Classify decided about a command line.
type Class struct {
	Kind Kind
	// Name is the word to run: the typed one, or what it stands for
	// (quit is exit).
	Name string
	Word *Word // the table's entry, for Lab and Macro
	// Refusal, when set, is why the line must not run: a shell word that
	// would reach the host's file system (cd, set +f, test -r /etc/x).
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
	if c.Kind == Shell {
		c.Refusal = hostRefusal(args)
	}
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
	case interp.IsBuiltin(name) && !hasUpper(name):
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

// JobName is the session a background job running words is named after:
// `@bob CMD` is bob, `book carol` (a bidder's macro) is carol,
// `./book.sh alice` is alice (the lesson's bidder), `./x.sh` is x; "" when
// the words name none.
func JobName(words []string) string {
	c := Classify(words, Lang)
	switch {
	case c.Kind == Session:
		name, _ := SessionName(c.Name)
		return name
	case c.Kind == Script && c.Word != nil:
		if len(words) > 1 {
			return scriptJobName(words[1:]) // run, source, bash, sh FILE
		}
		return "" // the file is known only at run time (run $f &)
	case c.Kind == Script:
		return scriptJobName(words)
	case c.Kind == Macro && c.Word.Bidder && len(words) > 1 && ValidName(words[1]):
		return words[1]
	}
	return ""
}

// scriptJobName names a job running a script file: after its first
// argument (the lesson's bidder: ./book_no_lock.sh alice), else after the
// file (./x.sh is x).
func scriptJobName(words []string) string {
	if len(words) > 1 && ValidName(words[1]) {
		return words[1]
	}
	return strings.TrimSuffix(path.Base(words[0]), path.Ext(words[0]))
}

// NamedByArgument reports whether a job running first is named after its
// first argument (a bidder's macro, a script path), so that a job whose
// argument is only known at run time (`book $w &`) is named then.
func NamedByArgument(first string) bool {
	c := Classify([]string{first, ""}, Lang)
	return (c.Kind == Script && strings.Contains(first, "/")) || (c.Kind == Macro && c.Word.Bidder)
}

// RedisPart is the Redis command of a line, past the prefixes that come
// before one: `@NAME`, `redis-cli [flags]`, `docker exec [opts] CTR
// redis-cli [flags]`.
func RedisPart(fields []string) []string {
	for len(fields) > 0 {
		switch c := Classify(fields, Lang); {
		case c.Kind == Session:
			fields = fields[1:]
		case c.Name == "redis-cli":
			fields = skipCLIFlags(fields[1:])
		case c.Name == "docker" && len(fields) >= 4 && fields[1] == "exec":
			_, rest, _ := dockerExecFlags(fields[2:])
			fields = rest
			if len(fields) > 0 {
				fields = fields[1:] // the container
			}
		default:
			return fields
		}
	}
	return fields
}

func skipCLIFlags(fields []string) []string {
	var o cliflags.Options
	for len(fields) > 0 && cliflags.IsFlag(fields[0]) {
		n, err := cliflags.ParseFlag(&o, fields)
		if err != nil || n == 0 {
			return fields[1:]
		}
		fields = fields[n:]
	}
	return fields
}

// LabFile reports whether the shell may look at path: /dev/null and the
// lab's own scripts (.lab and .sh files, named from the folder locklab
// started in, and inside it). Every other path is the host's, and the lab
// language sees none of them.
func LabFile(p string) bool {
	ext := path.Ext(p)
	return p == "/dev/null" || (ext == ".lab" || ext == ".sh") && filepath.IsLocal(p)
}

// hostRefusal is why a shell builtin line must not run, or nil: it would
// change folder, turn globbing on (listing host folders) or test a host
// file.
func hostRefusal(args []string) *Error {
	switch args[0] {
	case "cd", "pushd", "popd":
		return &Error{Status: 1, Msg: args[0] + ": the lab stays in the folder locklab started in: name a script by its path from there (./x.sh, run labs/x.lab)"}
	case "set", "shopt":
		if globsOn(args) {
			return &Error{Status: 2, Msg: strings.Join(args, " ") + ": globbing stays off in the lab, so that KEYS * reaches Redis as typed and no host folder is listed"}
		}
	case "test", "[":
		return fileTestRefusal(args)
	case "builtin":
		if len(args) > 1 {
			return hostRefusal(args[1:])
		}
	}
	return nil
}

// globsOn reports whether a set or shopt line turns globbing on: `set
// +f`, `set +o noglob`, `shopt -u -o noglob`.
func globsOn(args []string) bool {
	noglob := slices.Contains(args, "noglob")
	for _, a := range args[1:] {
		switch {
		case a == "--" || !isOption(a):
			return false
		case args[0] == "set" && strings.HasPrefix(a, "+") && (strings.Contains(a, "f") || strings.Contains(a, "o") && noglob):
			return true
		case args[0] == "shopt" && strings.HasPrefix(a, "-") && strings.Contains(a, "u") && noglob:
			return true
		}
	}
	return false
}

// fileTestRefusal refuses a test (or [) whose file operators name a path
// that is not a lab file: `[ -r /etc/shadow ]` answers nothing about the
// host, whatever is there.
func fileTestRefusal(args []string) *Error {
	operands := args[1:]
	if args[0] == "[" && len(operands) > 0 && operands[len(operands)-1] == "]" {
		operands = operands[:len(operands)-1]
	}
	scan := &testScan{rem: operands}
	scan.expr(false)
	for _, f := range scan.files {
		if !LabFile(f) {
			return &Error{Status: 2, Msg: fmt.Sprintf("%s: the lab sees no host files: file tests work only on the lab's scripts (x.lab, ./x.sh, from the folder locklab started in) and /dev/null", strings.Join(args, " "))}
		}
	}
	return nil
}

// testScan reads a test's words as the interpreter's parser does
// (mvdan.cc/sh/v3/interp's classicTest) and collects the operands its
// file operators would look at.
type testScan struct {
	rem   []string
	files []string
}

func (p *testScan) done() bool { return len(p.rem) == 0 || p.rem[0] == ")" }

// take is the next word ("" at the end).
func (p *testScan) take() string {
	if len(p.rem) == 0 {
		return ""
	}
	v := p.rem[0]
	p.rem = p.rem[1:]
	return v
}

// expr reads a primary (within -a/-o) or a comparison, then an operator
// and its right side. It returns the expression's word, when it is one.
func (p *testScan) expr(pastAndOr bool) (word string, isWord bool) {
	if pastAndOr {
		if p.done() {
			return "", false
		}
		word, isWord = p.primary()
	} else {
		word, isWord = p.expr(true)
	}
	if p.done() {
		return word, isWord
	}
	switch op := p.take(); op {
	case "-a", "-o":
		p.expr(false)
	case "-nt", "-ot", "-ef":
		if isWord {
			p.files = append(p.files, word)
		}
		p.files = append(p.files, p.take())
	default:
		p.take()
	}
	return "", false
}

// primary reads `! EXPR`, `( EXPR )`, a unary test or a word.
func (p *testScan) primary() (word string, isWord bool) {
	v := p.take()
	unary, file := unaryTest(v)
	switch {
	case v == "!":
		p.expr(false)
	case v == "(":
		p.expr(false)
		p.take() // the )
	case unary && len(p.rem) == 0:
		return v, true // `[ -e ]` is `[ -n -e ]`
	case unary && file:
		p.files = append(p.files, p.take())
	case unary:
		p.take()
	default:
		return v, true
	}
	return "", false
}

// unaryTest says whether v is a unary test operator, and whether it
// looks at a file.
func unaryTest(v string) (unary, file bool) {
	switch v {
	case "-e", "-a", "-f", "-d", "-c", "-b", "-p", "-S", "-L", "-h", "-k", "-g", "-u", "-G", "-O", "-N", "-r", "-w", "-x", "-s":
		return true, true
	case "-t", "-z", "-n", "-o", "-v", "-R":
		return true, false
	}
	return false, false
}
