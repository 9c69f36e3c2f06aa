package explore

import (
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/commands"
	"github.com/locklab/locklab/repl/lockargs"
)

// access is what one step touches, as far as its words say: the keys it
// names, and whether it only reads them. A step whose keys cannot be
// known from its words (KEYS, FLUSHALL, MULTI, EXEC, a script with no
// declared keys, an unknown command) is global: it commutes with no
// step. Over-approximating is safe: a pair taken as conflicting is only
// explored in both orders.
type access struct {
	keys   []string
	read   bool // it only reads
	global bool // it may touch anything
	none   bool // it touches no data (PING, ECHO, TIME)
}

// touchesNothing are the keyless commands that read no data and write
// none.
var touchesNothing = []string{"PING", "ECHO", "TIME"}

// accessOf reads what a command touches from the command table's key
// positions and flags; EVAL and its kin by their declared keys, when
// their body (scripts: the bodies this run loaded, by SHA1) touches no
// other (see keysDeclared).
func accessOf(args []string, scripts map[string]string) access {
	if len(args) == 0 {
		return access{global: true}
	}
	name := strings.ToUpper(args[0])
	if slices.Contains(touchesNothing, name) {
		return access{none: true}
	}
	if keys, _, ok := lockargs.EvalKeys(args); ok && len(keys) > 0 {
		body := args[1]
		if strings.HasPrefix(name, "EVALSHA") {
			body = scripts[strings.ToLower(args[1])]
		}
		if !keysDeclared(body) {
			return access{global: true}
		}
		return access{keys: keys, read: strings.HasSuffix(name, "_RO")}
	}
	cmd, _ := commands.Lookup(args)
	if cmd == nil || cmd.FirstKey <= 0 || cmd.KeyStep <= 0 || cmd.Is(commands.FlagMovableKeys) {
		return access{global: true}
	}
	keys := keysAt(args, cmd.FirstKey, cmd.LastKey, cmd.KeyStep)
	if keys == nil {
		return access{global: true}
	}
	return access{keys: keys, read: cmd.Is(commands.FlagReadonly)}
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

// commutes reports whether two steps of different sessions give the same
// result in either order: one touches no data, or both only read, or
// they name no key in common.
func (a access) commutes(b access) bool {
	switch {
	case a.none || b.none:
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
