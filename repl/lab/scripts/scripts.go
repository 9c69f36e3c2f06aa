package scripts

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
)

// Script is one Lua script the lab sends.
type Script struct {
	Name string   // the lab's name for it: release, extend, ...
	Doc  string   // what it does and answers, in one line
	Keys []string // what KEYS[1], KEYS[2], ... are; their count is numkeys
	Args []string // what ARGV[1], ARGV[2], ... are
	Body string   // the Lua, as sent
	sha  func() string
}

func newScript(name, doc string, keys, args []string, body string) *Script {
	sha := sync.OnceValue(func() string {
		sum := sha1.Sum([]byte(body))
		return hex.EncodeToString(sum[:])
	})
	return &Script{Name: name, Doc: doc, Keys: keys, Args: args, Body: body, sha: sha}
}

// SHA is the SHA1 of Body in hex, as SCRIPT LOAD answers it; it is
// computed on first use, not as locklab starts.
func (s *Script) SHA() string { return s.sha() }

// NumKeys is the numkeys of its EVAL: how many of its arguments are keys
// (Inspect's are as many as it reads: see Eval; a release's waiting mark
// may be left out: then it is one fewer).
func (s *Script) NumKeys() int { return len(s.Keys) }

// Eval is the command that runs it with its body: EVAL BODY numkeys,
// keys (as Keys names them), then argv (as Args names them).
func (s *Script) Eval(keys []string, argv ...string) []string {
	return run("EVAL", s.Body, keys, argv)
}

// EvalSHA is Eval by its SHA1, for a server that has loaded it.
func (s *Script) EvalSHA(keys []string, argv ...string) []string {
	return run("EVALSHA", s.SHA(), keys, argv)
}

func run(name, script string, keys, argv []string) []string {
	args := make([]string, 0, 3+len(keys)+len(argv))
	args = append(args, name, script, strconv.Itoa(len(keys)))
	return append(append(args, keys...), argv...)
}

// RunBy reports whether a command runs this script: EVAL (or EVAL_RO) of
// its body, or EVALSHA (or EVALSHA_RO) of its SHA1, in any case.
func (s *Script) RunBy(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch strings.ToUpper(args[0]) {
	case "EVAL", "EVAL_RO":
		return args[1] == s.Body
	case "EVALSHA", "EVALSHA_RO":
		return strings.EqualFold(args[1], s.SHA())
	}
	return false
}

// IsLua reports whether text calls Redis as a script does
// (redis.call( or redis.pcall(): Lua, not a command.
func IsLua(text string) bool {
	return strings.Contains(text, "redis.call(") || strings.Contains(text, "redis.pcall(")
}

// LessonEval is the lesson's own line that runs Release.
var LessonEval = `EVAL "` + Release.Body + `" 1 lock:demo my-token`

// LuaHint is the shell's hint (shell.Config.Hint) for an entry that does
// not parse because it is Lua pasted alone: run it with EVAL, as the
// lesson does. "" for any other entry.
func LuaHint(entry string) string {
	if !IsLua(entry) {
		return ""
	}
	return "hint: this is Lua: run it with EVAL '...' 1 KEY ARG, as the lesson does:\n  " + LessonEval
}

var (
	// Release is the lesson's compare-and-delete, as its seeds spell it:
	// delete the lock only while it still holds the caller's token.
	Release = newScript("release",
		"compare-and-delete: DEL the lock only if it holds the token; 1 released, 0 not (another's lock, or none)",
		[]string{"the lock"}, []string{"the caller's token"},
		"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end")

	// ReleaseTold is load's compare-and-delete, which tells apart the two
	// ways it does not delete. Given a waiting mark, it announces a
	// release on the channel (PUBLISH, as Redisson's unlock does) when a
	// waiter set the mark since the last announcement, in the same atomic
	// step: a waiter learns of it as soon as the releaser does, and a
	// lock nobody waits for costs no message.
	ReleaseTold = newScript("release-told",
		"compare-and-delete that says why not: 1 released (announced on the channel if the mark was set: the mark is taken), 0 another's lock (left alone), -1 no lock at all",
		[]string{"the lock", "the waiting mark (optional)"}, []string{"the caller's token", "the channel to announce on (with the mark)"},
		`local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if KEYS[2] and redis.call('DEL', KEYS[2]) == 1 then redis.call('PUBLISH', ARGV[2], KEYS[1]) end
  return 1
elseif v then
  return 0
end
return -1`)

	// BlindRelease is load's break mode: a plain DEL, atomic with a GET
	// that tells whose lock it deleted (MULTI; GET; DEL; EXEC in one
	// round trip). Given a waiting mark, it announces a deletion as
	// ReleaseTold does.
	BlindRelease = newScript("blind-release",
		"plain DEL of the lock, whoever holds it (announced on the channel if a lock was there and the mark set); answers the value it deleted (nil: none)",
		[]string{"the lock", "the waiting mark (optional)"}, []string{"the channel to announce on (with the mark)"},
		`local v = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
if v and KEYS[2] and redis.call('DEL', KEYS[2]) == 1 then redis.call('PUBLISH', ARGV[1], KEYS[1]) end
return v`)

	// Extend is compare-and-PEXPIRE, a watchdog's extension: more time
	// for the lock only while it is still the caller's.
	Extend = newScript("extend",
		"compare-and-PEXPIRE: set the lock's TTL only if it holds the token; 1 extended, 0 not the caller's",
		[]string{"the lock"}, []string{"the caller's token", "the new TTL in milliseconds"},
		"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end")

	// FencedAcquire is load's fenced acquisition: SET NX PX and, when it
	// took the lock, the fencing token (INCR), in one atomic step, so
	// tokens go up in the order the lock was granted, as bsm/redislock's
	// obtain.lua and Redisson's RFencedLock issue them.
	FencedAcquire = newScript("fenced-acquire",
		"SET the lock NX PX and INCR the fence when it took it; answers the fencing token, nil when held",
		[]string{"the lock", "the fence counter"}, []string{"the owner token", "the TTL in milliseconds"},
		`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`)

	// FencedSet is load's protected resource: it refuses a fencing token
	// older than the newest it accepted; otherwise it records the token
	// and SETs the value the client computed, answering the one it
	// replaced, as SET ... GET does in load's other modes.
	FencedSet = newScript("fenced-set",
		"SET the resource unless the fencing token is older than the newest accepted; -1 refused, else the value replaced",
		[]string{"the resource", "the newest token accepted"}, []string{"the fencing token", "the value"},
		`local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) < last then
  return -1
end
redis.call('SET', KEYS[2], ARGV[1])
local replaced = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[2])
return tonumber(replaced or '0')`)

	// FencedBook is the slot's fencing check, as fenced-book and
	// fenced-write run it: it books only with a fencing token no older
	// than the newest the slot has accepted. The annotator knows it by
	// RunBy (its text, or its SHA1), since what it did to the keys does
	// not say whether it refused a token.
	FencedBook = newScript("fenced-book",
		"RPUSH the bidder to the slot unless the token is stale or the slot full; -1 stale (nothing written), 0 full, 1 booked (token recorded)",
		[]string{"the slot's list", "the newest token accepted"}, []string{"the writer's fencing token", "the bidder", "the slot's seats"},
		`local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local token = tonumber(ARGV[1])
if token < last then return -1 end
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[2], token)
redis.call('RPUSH', KEYS[1], ARGV[2])
return 1`)

	// Inspect is keyguard's look before a macro deletes its keys: one
	// script, so one instant, for them all. Its keys are as many as the
	// check reads: Keys names one, which stands for them all.
	Inspect = newScript("inspect",
		"for each key that exists: {key, TYPE, PTTL, its value when a string of at most ARGV[1] bytes, else ''}",
		[]string{"each key to read"}, []string{"the longest value to answer, in bytes"},
		`local found = {}
for _, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key)['ok']
  if kind ~= 'none' then
    local value = ''
    if kind == 'string' and redis.call('STRLEN', key) <= tonumber(ARGV[1]) then
      value = redis.call('GET', key)
    end
    found[#found + 1] = {key, kind, redis.call('PTTL', key), value}
  end
end
return found`)
)

// All is every script the lab sends.
func All() []*Script {
	return []*Script{Release, ReleaseTold, BlindRelease, Extend, FencedAcquire, FencedSet, FencedBook, Inspect}
}
