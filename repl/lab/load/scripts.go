package load

import (
	"crypto/sha1"
	"encoding/hex"
)

// script is a Lua script, sent once with SCRIPT LOAD and then run with
// EVALSHA (EVAL when the server answers NOSCRIPT, e.g. after SCRIPT FLUSH).
type script struct {
	keys     int // how many of its arguments are keys
	src, sha string
}

func newScript(keys int, src string) *script {
	sum := sha1.Sum([]byte(src))
	return &script{keys: keys, src: src, sha: hex.EncodeToString(sum[:])}
}

var (
	// plainRelease is break mode's release: a plain DEL, which deletes
	// whatever lock is there, returning what it deleted so the worker can
	// tell whose lock that was. Atomic like MULTI; GET; DEL; EXEC, in one
	// round trip.
	plainRelease = newScript(1, `local v = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
return v`)

	// safeRelease is the seeds' Lua compare-and-delete, telling apart the
	// two ways it does not delete: 1 released, 0 another worker's lock
	// (left alone), -1 no lock at all (it expired and nobody took it).
	safeRelease = newScript(1, `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  return redis.call('DEL', KEYS[1])
elseif v then
  return 0
end
return -1`)

	// extend is the watchdog's compare-and-PEXPIRE: 1 extended, 0 the lock
	// is no longer ours.
	extend = newScript(1, `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

	// fencedAcquire is fenced mode's acquisition: the same SET NX PX and,
	// when it took the lock, the fencing token (INCR), in one atomic step,
	// so tokens go up in the order the lock was granted, as bsm/redislock's
	// obtain.lua and Redisson's RFencedLock issue them. It answers the
	// token, or nil when someone holds the lock.
	// KEYS: lock, fence. ARGV: the owner token, the TTL in ms.
	fencedAcquire = newScript(2, `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`)

	// fencedWrite is the protected resource's side of fencing: it refuses a
	// fencing token older than the newest it has accepted (-1); otherwise
	// it records the token and SETs the value the client computed, and
	// answers the value it replaced, as SET ... GET does in the other
	// modes. KEYS: resource, fence:last. ARGV: the fencing token, the value.
	fencedWrite = newScript(2, `local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) < last then
  return -1
end
redis.call('SET', KEYS[2], ARGV[1])
local replaced = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[2])
return tonumber(replaced or '0')`)
)

var allScripts = []*script{plainRelease, safeRelease, extend, fencedAcquire, fencedWrite}
