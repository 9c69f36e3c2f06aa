package commute

import (
	"testing"

	"github.com/locklab/locklab/repl/lab/scripts"
)

// TestKeysDeclared trusts a script's declared keys only when its body
// reaches Redis through KEYS alone.
func TestKeysDeclared(t *testing.T) {
	for body, want := range map[string]bool{
		"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end": true,
		"return redis.call('PEXPIRE', KEYS[1], ARGV[2])":                                                    true,
		"redis.pcall(\"SET\", KEYS[1], 'x, y') return redis.call('TIME')":                                   true,
		"return redis.call('RENAME', KEYS[1], KEYS[2])":                                                     true,
		"redis.call('SET','other','A') return 1":                                                            false,
		"return redis.call('GET', KEYS[1]..':x')":                                                           false,
		"return redis.call('DEL', KEYS[1], 'other')":                                                        false,
		"return redis.call('RENAME', KEYS[1], 'other')":                                                     false,
		"local c = redis.call; return c('SET', 'other', 1)":                                                 false,
		"local r = redis; return r.call('SET', 'other', 1)":                                                 false,
		"return redis['call']('SET', 'other', 1)":                                                           false,
		"return _G.redis.call('GET', KEYS[1])":                                                              false,
		"return redis.call(ARGV[1], KEYS[1])":                                                               false,
		"return redis.call('FLUSHALL')":                                                                     false,
		"return redis.call('KEYS', '*')":                                                                    false,
		"return redis.call('GET', KEYS[1]":                                                                  false,
		"":                                                                                                  false,
		"for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end return 1":                                       true,
		"if redis.call('GET', KEYS[1])==ARGV[1] then return 1 end":                                          true,
		"KEYS[1] = 'b'; redis.call('SET', KEYS[1], 1) return 1":                                             false,
		"KEYS[1]='b' redis.call('SET', KEYS[1], 1) return 1":                                                false,
		"local KEYS = {'b'}; return redis.call('SET', KEYS[1], 1)":                                          false,
		"local k = KEYS; k[1] = 'b'; return redis.call('SET', KEYS[1], 1)":                                  false,
		"table.insert(KEYS, 'b'); return redis.call('SET', KEYS[2], 1)":                                     false,
	} {
		for _, pass := range []string{"read", "remembered"} { // the second answer comes from declared
			if got := keysDeclared(body); got != want {
				t.Errorf("%q (%s): got %v, want %v", body, pass, got, want)
			}
		}
	}
}

// TestLabScriptsDeclared: every script the lab sends but keyguard's
// Inspect (which reads every key it is given, through a loop variable)
// and load's releases that announce on a channel (PUBLISH names no key:
// a message reaches whoever subscribed, so such a script commutes with
// nothing, rightly; explore refuses load anyway) touches only its
// declared keys, so explore may commute it with the steps on other keys;
// so do the lesson's compare-and-delete as its seeds print it on several
// lines, and its one-line paste.
func TestLabScriptsDeclared(t *testing.T) {
	bodies := map[string]bool{
		"if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nelse\n  return 0\nend": true,
		"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end":         true,
	}
	for _, s := range scripts.All() {
		bodies[s.Body] = s != scripts.Inspect && s != scripts.ReleaseTold && s != scripts.BlindRelease
	}
	for body, want := range bodies {
		if got := keysDeclared(body); got != want {
			t.Errorf("%q: keysDeclared %v, want %v", body, got, want)
		}
	}
}
