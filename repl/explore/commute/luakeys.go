package commute

import (
	"crypto/sha1"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/locklab/locklab/repl/cli/commands"
)

// A script's declared keys are what it touches only when its body says
// so: every redis.call names a known command and gives it, at each of
// the command's key positions, a KEYS[...] element. Redis does not
// enforce it (a script may SET 'other' with 1 key declared), so a body
// that does otherwise, or cannot be read (EVALSHA of a script this run
// did not load), is taken as touching anything.

// The patterns that read a body, each compiled on its first use (not as
// locklab starts: most runs read no script).
var (
	luaCall = lazyRegexp(`(?:redis|server)\s*\.\s*p?call\s*\(`)
	luaKey  = lazyRegexp(`^KEYS\s*\[[^\[\]]*\]$`)
	// luaEscape is a way to reach redis.call other than by its name.
	luaEscape = lazyRegexp(`\b(_G|_ENV|loadstring|load|getfenv|setfenv|rawget|setmetatable|require|dofile)\b`)
	// luaKeysUse is a use of KEYS: what comes before it, and after.
	luaKeysUse = lazyRegexp(`(#?\s*)\bKEYS\b(\s*\[[^\[\]]*\]\s*=?=?)?`)
)

// lazyRegexp is pattern, compiled on its first use.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// keysRead reports whether body only reads KEYS: its length (#KEYS) or
// an element (KEYS[1]), never assigning one, aliasing the table
// (local k = KEYS) or handing it to a function (table.insert(KEYS, x)):
// a script that rewrites KEYS[1] calls with a key it did not declare.
func keysRead(body string) bool {
	for _, m := range luaKeysUse().FindAllStringSubmatch(body, -1) {
		length, element := strings.HasPrefix(m[1], "#"), m[2]
		assigned := strings.HasSuffix(element, "=") && !strings.HasSuffix(element, "==")
		if !length && (element == "" || assigned) {
			return false
		}
	}
	return true
}

// sha is a script's SHA1 as SCRIPT LOAD answers it.
func sha(body string) string {
	h := sha1.Sum([]byte(body))
	return hex.EncodeToString(h[:])
}

// declared remembers keysDeclared's answers, by body: a search reads the
// same few scripts at every step of every schedule. Bodies longer than
// rememberUpTo are read each time, and the memory is emptied when it
// holds maxRemembered, so it stays small whatever a run sends.
var declared struct {
	sync.Mutex
	of map[string]bool
}

const (
	rememberUpTo  = 4 << 10
	maxRemembered = 1024
)

// keysDeclared reports whether body touches no key but through KEYS.
func keysDeclared(body string) bool {
	if len(body) > rememberUpTo {
		return readKeysDeclared(body)
	}
	declared.Lock()
	answer, ok := declared.of[body]
	declared.Unlock()
	if ok {
		return answer
	}
	answer = readKeysDeclared(body)
	declared.Lock()
	defer declared.Unlock()
	if declared.of == nil || len(declared.of) >= maxRemembered {
		declared.of = map[string]bool{}
	}
	declared.of[body] = answer
	return answer
}

// readKeysDeclared is keysDeclared, read from the body.
func readKeysDeclared(body string) bool {
	if body == "" || luaEscape().MatchString(body) || !keysRead(body) {
		return false
	}
	calls := luaCall().FindAllStringIndex(body, -1)
	if strings.Count(strings.ToLower(body), "call") != len(calls) { // redis.call under another name
		return false
	}
	for _, c := range calls {
		args, ok := luaArgs(body[c[1]:])
		if !ok || !callKeysDeclared(args) {
			return false
		}
	}
	return true
}

// callKeysDeclared reports whether one redis.call's arguments name a
// known command and give KEYS elements at its key positions.
func callKeysDeclared(args []string) bool {
	if len(args) == 0 || len(args[0]) < 2 || !strings.ContainsAny(args[0][:1], `'"`) || args[0][0] != args[0][len(args[0])-1] {
		return false
	}
	args[0] = args[0][1 : len(args[0])-1]
	if slices.Contains(touchesNothing, strings.ToUpper(args[0])) {
		return true
	}
	cmd, _ := commands.Lookup(args[:1])
	if cmd == nil || cmd.FirstKey <= 0 || cmd.KeyStep <= 0 || cmd.Is(commands.FlagMovableKeys) {
		return false
	}
	keys := keysAt(args, cmd.FirstKey, cmd.LastKey, cmd.KeyStep)
	return keys != nil && !slices.ContainsFunc(keys, func(k string) bool { return !luaKey().MatchString(k) })
}

// luaArgs splits a call's arguments, from just after its "(" to the ")"
// that closes it, at the commas outside brackets and strings.
func luaArgs(s string) ([]string, bool) {
	var args []string
	depth, start, quote := 0, 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ',' || c == ')') && depth == 0:
			args = append(args, strings.TrimSpace(s[start:i]))
			if c == ')' {
				return args, true
			}
			start = i + 1
		case c == ')' || c == ']' || c == '}':
			depth--
		}
	}
	return nil, false
}
