package commands

import (
	"slices"
	"strings"
	"testing"
)

// TestKeys: the keys a command names, from the table's key specs, for
// every shape the table has: one key, a range, a stepped range, a range
// to the word before last, a counted list (numkeys), a key after a token.
func TestKeys(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"SET lock:a ta NX PX 5000", "lock:a"},
		{"get lock:a", "lock:a"},
		{"GETDEL lock:a", "lock:a"},
		{"DEL lock:a lock:b lock:a", "lock:a lock:b"},
		{"MSET a 1 b 2", "a b"},
		{"RENAME lock:a lock:b", "lock:a lock:b"},
		{"COPY lock:a lock:b DB 1 REPLACE", "lock:a lock:b"},
		{"BLPOP q1 q2 0", "q1 q2"},
		{"EVAL return 2 lock:a lock:b tok", "lock:a lock:b"},
		{"EVALSHA abc 1 lock:a tok", "lock:a"},
		{"EVAL return 0 tok", ""},
		{"FCALL f 1 lock:a tok", "lock:a"},
		{"ZUNIONSTORE dest 2 z1 z2 WEIGHTS 1 2", "dest z1 z2"},
		{"LMPOP 2 l1 l2 LEFT", "l1 l2"},
		{"BLMPOP 0 1 l1 LEFT", "l1"},
		{"SORT src BY w STORE dst", "src dst"},
		{"MIGRATE h 6379 k0 0 5000", "k0"},
		{"OBJECT ENCODING k", "k"},
		{"FLUSHDB", ""},
		{"SWAPDB 0 1", ""},
		{"EVAL return 9 k", ""}, // numkeys past the words: none
		{"NOSUCH k", ""},
		{"SET", ""},
	} {
		got := strings.Join(Keys(strings.Fields(tc.line)), " ")
		if got != tc.want {
			t.Errorf("Keys(%s) = %q; want %q", tc.line, got, tc.want)
		}
	}
	// MIGRATE's "" key stands for none: the keys follow KEYS.
	migrate := []string{"MIGRATE", "h", "6379", "", "0", "5000", "KEYS", "k1", "k2"}
	if got := Keys(migrate); !slices.Equal(got, []string{"k1", "k2"}) {
		t.Errorf("Keys(%q) = %q; want [k1 k2]", migrate, got)
	}
}

// TestWrites: writes are what the table flags write, plus the scripts
// and functions that may write; reads and _RO forms are not.
func TestWrites(t *testing.T) {
	for line, want := range map[string]bool{
		"SET k v": true, "GETDEL k": true, "PEXPIRE k 1": true, "RENAME a b": true,
		"FLUSHDB": true, "FLUSHALL": true, "SWAPDB 0 1": true, "MOVE k 1": true, "COPY a b": true,
		"RPUSH l x": true, "EVAL s 0": true, "EVALSHA s 0": true, "FCALL f 0": true,
		"GET k": false, "PTTL k": false, "LLEN l": false, "EVAL_RO s 0": false, "FCALL_RO f 0": false,
		"SELECT 1": false, "MULTI": false, "SCRIPT LOAD x": false, "NOSUCH": false,
	} {
		if got := Writes(strings.Fields(line)); got != want {
			t.Errorf("Writes(%s) = %v; want %v", line, got, want)
		}
	}
}

// TestKeysWholeTable: every command with a key spec names, given enough
// words, keys at the places the spec says, and never a word past the
// end: Keys works for every entry, not only those above.
func TestKeysWholeTable(t *testing.T) {
	for _, c := range All() {
		n := 1 + strings.Count(c.Name, " ")
		words := strings.Fields(c.Name)
		for len(words) < max(abs(c.Arity), n+8) {
			words = append(words, "w"+string(rune('a'+len(words))))
		}
		for _, k := range Keys(words) {
			if !slices.Contains(words[n:], k) {
				t.Errorf("%s: key %q is not one of its argument words %q", c.Name, k, words[n:])
			}
		}
		if c.FirstKey > 0 && len(Keys(words)) == 0 {
			t.Errorf("%s: FirstKey %d but no key in %q", c.Name, c.FirstKey, words)
		}
	}
}

func abs(n int) int { return max(n, -n) }
