package commute

import (
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// Access is what one step touches, as far as its words say: the keys it
// names, and whether it only reads them. A step whose keys cannot be
// known from its words (KEYS, FLUSHALL, MULTI, EXEC, a script with no
// declared keys, an unknown command) is global: it commutes with no
// step. Over-approximating is safe: a pair taken as conflicting is only
// explored in both orders.
type Access struct {
	keys     []string
	read     bool   // it only reads
	global   bool   // it may touch anything (on its server)
	none     bool   // it touches no data (PING, ECHO, TIME)
	server   string // the server it goes to: "" for the lab's own (see On)
	anywhere bool   // global on every server: a step with no words (Of(nil))
}

// On is a, for a command sent to server (a Redlock node, "A") instead of
// the lab's own: it touches nothing on any other server, so a key there
// is not the key of the same name elsewhere, and even a command whose
// keys cannot be known (global) commutes with every other server's.
func (a Access) On(server string) Access {
	a.server = server
	return a
}

// touchesNothing are the keyless commands that read no data and write
// none.
var touchesNothing = []string{"PING", "ECHO", "TIME"}

// Of reads what a command touches from the command table's key
// positions and flags (no words: a step that may touch anything on any
// server, a fault's); EVAL and its kin by their declared keys, when
// their body (scripts: the bodies this run loaded, by SHA1) touches no
// other (see keysDeclared).
func Of(args []string, scripts Scripts) Access {
	if len(args) == 0 {
		return Access{global: true, anywhere: true} // a fault's: time running on moves every server's TTLs
	}
	name := strings.ToUpper(args[0])
	if slices.Contains(touchesNothing, name) {
		return Access{none: true}
	}
	if keys, _, ok := lockargs.EvalKeys(args); ok && len(keys) > 0 {
		body := args[1]
		if strings.HasPrefix(name, "EVALSHA") {
			body = scripts[strings.ToLower(args[1])]
		}
		if !keysDeclared(body) {
			return Access{global: true}
		}
		return Access{keys: keys, read: strings.HasSuffix(name, "_RO")}
	}
	cmd, _ := commands.Lookup(args)
	if cmd == nil || cmd.FirstKey <= 0 || cmd.KeyStep <= 0 || cmd.Is(commands.FlagMovableKeys) {
		return Access{global: true}
	}
	keys := keysAt(args, cmd.FirstKey, cmd.LastKey, cmd.KeyStep)
	if keys == nil {
		return Access{global: true}
	}
	return Access{keys: keys, read: cmd.Is(commands.FlagReadonly)}
}

// keysAt picks the key arguments at COMMAND INFO's legacy positions
// (last < 0 counts from the end); nil when the words do not fit them.
func keysAt(args []string, first, last, step int) []string {
	if last < 0 {
		last += len(args)
	}
	if first >= len(args) || last >= len(args) || last < first {
		return nil
	}
	var keys []string
	for i := first; i <= last; i += step {
		keys = append(keys, args[i])
	}
	return keys
}

// Commutes reports whether two steps of different sessions give the same
// result in either order: they go to different servers, or one touches
// no data, or both only read, or they name no key in common.
func (a Access) Commutes(b Access) bool {
	switch {
	case a.none || b.none, a.server != b.server && !a.anywhere && !b.anywhere:
		return true
	case a.global || b.global:
		return false
	case a.read && b.read:
		return true
	}
	for _, k := range a.keys {
		if slices.Contains(b.keys, k) {
			return false
		}
	}
	return true
}

// Scripts are the Lua bodies a run has loaded, by SHA1 (SCRIPT LOAD, or
// an EVAL of them), so that an EVALSHA is judged by its body.
type Scripts map[string]string

// Learn keeps the body a command loads, if it loads one.
func (sc Scripts) Learn(args []string) {
	switch name := strings.ToUpper(args[0]); {
	case len(args) == 3 && name == "SCRIPT" && strings.EqualFold(args[1], "LOAD"):
		sc[sha(args[2])] = args[2]
	case len(args) > 1 && strings.HasPrefix(name, "EVAL") && !strings.HasPrefix(name, "EVALSHA"):
		sc[sha(args[1])] = args[1]
	}
}
