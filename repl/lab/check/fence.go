package check

import (
	"github.com/locklab/locklab/repl/lab/lockargs"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// isFencedWrite reports whether args run the slot's fencing check,
// scripts.FencedBook, as the lab's fenced-book macro does: known by its
// text (EVAL) or by its SHA1 (EVALSHA: Redis names a script by the SHA1
// of its body), so that this write is told from a compare-and-delete
// release without guessing from the keys.
func isFencedWrite(args []string) bool { return scripts.FencedBook.RunBy(args) }

// onFencedWrite says what the resource did with a fenced write: its reply
// says whether it refused the token, and the newest token it had accepted
// is KEYS[2] as the probe read it just before, in the same MULTI (when the
// probe read it: a key named lock:...).
func (a *Annotator) onFencedWrite(e Event) []Note {
	keys, token, ok := lockargs.EvalKeys(e.Args)
	if !ok || len(keys) != 2 || !e.Reply.IsInt {
		return a.onStates(e)
	}
	return append(a.fenceSays(e, keys, token), a.onStates(e)...) // the booking it made, by the one rule
}

// fenceSays is what the reply of a fenced write says of its token.
func (a *Annotator) fenceSays(e Event, keys []string, token string) []Note {
	newest, read := e.before(keys[1])
	who := Say("%s's token %s", e.Session, token)
	switch e.Reply.Int {
	case -1:
		if read && newest.Exists {
			return []Note{{e.Session, Good, Say("STALE WRITE REFUSED: %s is older than %s, the newest the resource accepted", who, newest.Value)}}
		}
		return []Note{{e.Session, Good, Say("STALE WRITE REFUSED: %s is older than the newest the resource accepted", who)}}
	case 1:
		return []Note{{e.Session, Good, "fenced write accepted: " + accepted(who, newest, read)}}
	case 0:
		return []Note{{e.Session, Info, Say("fenced write not made: %s is full (%s was not stale)", keys[0], who)}}
	}
	return nil
}

// accepted says against what the resource accepted a token.
func accepted(who string, newest KeyState, read bool) string {
	switch {
	case !read:
		return who + " is not older than any the resource accepted"
	case !newest.Exists:
		return who + ", the first the resource accepted"
	}
	return Say("%s is not older than %s, the newest the resource had accepted", who, newest.Value)
}
