package check

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"

	"github.com/locklab/locklab/repl/lab/lockargs"
)

// FencedWriteScript is the resource's fencing check, as the lab's
// fenced-book macro runs it: it books only with a fencing token no older
// than the newest the slot has accepted. KEYS[1] is the slot, KEYS[2] the
// newest token it accepted; ARGV[1] is the writer's token, ARGV[2] the
// bidder, ARGV[3] the seats. It answers -1 for a stale token (and writes
// nothing), 0 for a full slot, 1 for a booking (and records the token).
//
// The annotator knows it by its text (EVAL) or by its SHA1 (EVALSHA: Redis
// names a script by the SHA1 of its body), so it can tell this write from
// a compare-and-delete release without guessing from the keys.
const FencedWriteScript = `local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local token = tonumber(ARGV[1])
if token < last then return -1 end
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[2], token)
redis.call('RPUSH', KEYS[1], ARGV[2])
return 1`

var fencedWriteSHA = func() string {
	sum := sha1.Sum([]byte(FencedWriteScript))
	return hex.EncodeToString(sum[:])
}()

// isFencedWrite reports whether args run FencedWriteScript.
func isFencedWrite(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch strings.ToUpper(args[0]) {
	case "EVAL":
		return args[1] == FencedWriteScript
	case "EVALSHA":
		return strings.EqualFold(args[1], fencedWriteSHA)
	}
	return false
}

// onFencedWrite says what the resource did with a fenced write: its reply
// says whether it refused the token, and the newest token it had accepted
// is KEYS[2] as the probe read it just before, in the same MULTI (when the
// probe read it: a key named lock:...).
func (a *Annotator) onFencedWrite(e Event) []Note {
	keys, token, ok := lockargs.EvalKeys(e.Args)
	if !ok || len(keys) != 2 || !e.Reply.IsInt {
		return nil
	}
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
