package labgen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/locklab/locklab/repl/lab/scripts"
)

// gen draws lines.
type gen struct {
	r         *rand.Rand
	strangers bool // a token may be another session's (Strangers)
}

// line draws one line of op for session name: with its own token, or
// now and then, with Strangers, another session's.
func (g gen) line(op Op, name string) string {
	r := g.r
	key, slot, token := pick(r, lockKeys), pick(r, slotKeys), tokenOf(name)
	if g.strangers && r.IntN(5) == 0 {
		token = tokenOf(pick(r, names))
	}
	switch op {
	case SetNX:
		return "SET " + key + " " + token + " NX" + maybe(r, " GET") + ttl(r, false)
	case Set:
		return "SET " + key + " " + token + ttl(r, true)
	case SetXX:
		return "SET " + key + " " + token + " XX" + ttl(r, true)
	case SetGet:
		return "SET " + key + " " + token + " GET" + ttl(r, true)
	case Del, Unlink, GetDel, Persist:
		return string(op) + " " + key
	case GetEx:
		if r.IntN(3) == 0 {
			return "GETEX " + key + " PERSIST"
		}
		return "GETEX " + key + ttl(r, false)
	case Expire:
		return fmt.Sprintf("EXPIRE %s %d", key, 1+r.IntN(2))
	case PExpire:
		return fmt.Sprintf("PEXPIRE %s %d", key, millis(r))
	case Rename:
		return "RENAME " + key + " " + other(key)
	case FlushDB:
		return "FLUSHDB"
	case EvalRelease:
		return fmt.Sprintf("EVAL \"%s\" 1 %s %s", scripts.Release.Body, key, token)
	case EvalExtend:
		return fmt.Sprintf("EVAL \"%s\" 1 %s %s %d", scripts.Extend.Body, key, token, millis(r))
	}
	return macroLine(r, op, name, key, slot, token)
}

// macroLine draws a line of a macro, a sleep or a slot command.
func macroLine(r *rand.Rand, op Op, name, key, slot, token string) string {
	switch op {
	case Book:
		return fmt.Sprintf("book %s --slot %s --work %dms", name, slot, millis(r))
	case BookLocked:
		return fmt.Sprintf("book-locked %s %s --lock %s --ttl %dms --work %dms --slot %s%s%s", name, token, key, millis(r), millis(r), slot,
			maybe(r, fmt.Sprintf(" --wait %dms", millis(r))), maybe(r, " --release "+pick(r, []string{"get-del", "eval", "blind"})))
	case ReleaseM:
		return "eval-release " + key + " " + token
	case ExtendM:
		return fmt.Sprintf("extend %s %s %dms", key, token, millis(r))
	case Sleep:
		return fmt.Sprintf("sleep %dms", millis(r))
	case LLen:
		return "LLEN " + slot
	case RPush:
		return "RPUSH " + slot + " " + name
	}
	panic("labgen: no line for " + string(op))
}

// millis is a time in milliseconds, short of or past the TTLs the labs
// give (which are drawn the same way): 10 ms to 1.2 s.
func millis(r *rand.Rand) int {
	return pick(r, []int{10, 50, 100, 200, 300, 500, 800, 1200})
}

// ttl is a SET's or GETEX's expiry option: PX or EX, or none when
// optional says it may be left out.
func ttl(r *rand.Rand, optional bool) string {
	switch n := r.IntN(4); {
	case optional && n == 0:
		return ""
	case n == 1:
		return fmt.Sprintf(" EX %d", 1+r.IntN(2))
	}
	return fmt.Sprintf(" PX %d", millis(r))
}

func maybe(r *rand.Rand, s string) string {
	if r.IntN(2) == 0 {
		return ""
	}
	return s
}

func pick[T any](r *rand.Rand, from []T) T { return from[r.IntN(len(from))] }

func tokenOf(name string) string { return "t-" + name }

// other is the other lock key (RENAME's target), or the other slot.
func other(key string) string {
	for _, pair := range [][]string{lockKeys, slotKeys} {
		if key == pair[0] {
			return pair[1]
		}
		if key == pair[1] {
			return pair[0]
		}
	}
	return key
}

// unrepeated is line, on the other slot when it would begin by reading
// the slot the session's last line may have ended reading (LLEN, or book,
// whose LLEN is its last command when the slot is full): a read that
// repeats its session's last step waits for something else to happen
// first, and with nothing left to happen the schedule is stuck.
func unrepeated(line string, before []string) string {
	if len(before) == 0 {
		return line
	}
	for _, slot := range slotKeys {
		if readsSlot(before[len(before)-1], slot) && readsSlot(line, slot) {
			return strings.Replace(line, slot, other(slot), 1)
		}
	}
	return line
}

// readsSlot reports whether line begins or may end by reading slot.
func readsSlot(line, slot string) bool {
	return line == "LLEN "+slot || strings.HasPrefix(line, "book ") && strings.Contains(line, " --slot "+slot+" ")
}
