package oracle

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/lab/check"
)

var now = time.Date(2024, 5, 1, 14, 0, 1, 0, time.UTC)

type keys map[string]server.KeyState

func (k keys) Peek(key string) server.KeyState { return k[key] }

type beliefs struct {
	locks []check.LockBelief
	slots []check.SlotBelief
}

func (b beliefs) Believed() ([]check.LockBelief, []check.SlotBelief) { return b.locks, b.slots }

func held(token string, left time.Duration) check.LockBelief {
	b := check.LockBelief{Key: "lock:a", Token: token, Held: true}
	if left != 0 {
		b.Deadline = now.Add(left)
	}
	return b
}

func lockKey(value string, ttl time.Duration) keys {
	return keys{"lock:a": {Exists: true, Type: "string", Value: value, TTL: ttl}}
}

// TestCompareLocks: the checker and the server agree on a lock key when
// both have it with the same token and time left (within Slack), or
// neither has it; any other pair is a divergence.
func TestCompareLocks(t *testing.T) {
	cases := []struct {
		name   string
		belief check.LockBelief
		server keys
		agree  bool
	}{
		{"same token and TTL", held("ta", 500*time.Millisecond), lockKey("ta", 500*time.Millisecond), true},
		{"TTL a few ns off (event stamps)", held("ta", 500*time.Millisecond+3), lockKey("ta", 500*time.Millisecond), true},
		{"neither expires", held("ta", 0), lockKey("ta", 0), true},
		{"believed free, no key", check.LockBelief{Key: "lock:a"}, keys{}, true},
		{"believed expired, no key", held("ta", -time.Second), keys{}, true},
		{"expiring now, no key", held("ta", 3), keys{}, true},
		{"another token", held("ta", 500*time.Millisecond), lockKey("tb", 500*time.Millisecond), false},
		{"TTL cut short", held("ta", 500*time.Millisecond), lockKey("ta", 10*time.Millisecond), false},
		{"TTL taken away", held("ta", 500*time.Millisecond), lockKey("ta", 0), false},
		{"believed free, key held", check.LockBelief{Key: "lock:a"}, lockKey("tb", time.Second), false},
		{"believed held, key gone", held("ta", 500*time.Millisecond), keys{}, false},
		{"believed expired, key there", held("ta", -time.Second), lockKey("ta", time.Second), false},
		{"a list where a lock was", held("ta", 0), keys{"lock:a": {Exists: true, Type: "list", Len: 1}}, false},
		{"believed free, a counter (no TTL ever)", check.LockBelief{Key: "lock:a"}, lockKey("1", 0), true},
	}
	for _, c := range cases {
		o := &Oracle{Server: c.server, Checker: beliefs{locks: []check.LockBelief{c.belief}}, Now: func() time.Time { return now }}
		err := o.Check([]string{"main DEL lock:a", "alice SET lock:a ta NX PX 500"})
		if (err == nil) != c.agree {
			t.Errorf("%s: agree=%v, got %v", c.name, c.agree, err)
		}
	}
}

// TestCounterOnceExpiring: a key the server showed with a TTL is a lock
// from then on: believed free while the server holds it with its TTL
// taken away (PERSIST, SET ... XX) is a divergence.
func TestCounterOnceExpiring(t *testing.T) {
	keys := lockKey("ta", time.Second)
	o := &Oracle{Server: keys, Checker: beliefs{locks: []check.LockBelief{held("ta", time.Second)}}, Now: func() time.Time { return now }}
	if err := o.Check([]string{"alice SET lock:a ta NX PX 1000"}); err != nil {
		t.Fatal(err)
	}
	keys["lock:a"] = server.KeyState{Exists: true, Type: "string", Value: "ta"}
	o.Checker = beliefs{locks: []check.LockBelief{{Key: "lock:a"}}}
	if err := o.Check([]string{"alice SET lock:a ta NX PX 1000", "bob PERSIST lock:a"}); err == nil {
		t.Error("believed free, the server holds the lock with no TTL: no divergence")
	}
}

// TestCounterGivenTTL: a value that appeared with no TTL stays a counter
// when a TTL is put on it (nobody acquired it), until another value
// appears.
func TestCounterGivenTTL(t *testing.T) {
	keys := lockKey("t-carol", 0)
	o := &Oracle{Server: keys, Checker: beliefs{locks: []check.LockBelief{{Key: "lock:a"}}}, Now: func() time.Time { return now }}
	steps := []string{"carol SET lock:a t-carol", "bob EXPIRE lock:a 1"}
	if err := o.Check(steps[:1]); err != nil {
		t.Fatal(err)
	}
	keys["lock:a"] = server.KeyState{Exists: true, Type: "string", Value: "t-carol", TTL: time.Second}
	if err := o.Check(steps); err != nil {
		t.Errorf("a counter given a TTL: %v", err)
	}
	keys["lock:a"] = server.KeyState{Exists: true, Type: "string", Value: "t-bob", TTL: time.Second}
	if err := o.Check(append(steps, "bob SET lock:a t-bob PX 1000")); err == nil {
		t.Error("believed free, a new value with a TTL: no divergence")
	}
}

// TestCompareSlots: the bookings the checker counts against the list's
// length (no key: 0).
func TestCompareSlots(t *testing.T) {
	list := func(n int64) keys { return keys{"room:a": {Exists: true, Type: "list", Len: n}} }
	cases := []struct {
		bookings int64
		server   keys
		agree    bool
	}{
		{0, keys{}, true}, {2, list(2), true}, {0, list(1), false}, {1, keys{}, false},
		{1, keys{"room:a": {Exists: true, Type: "string", Value: "x"}}, false},
	}
	for _, c := range cases {
		o := &Oracle{Server: c.server, Checker: beliefs{slots: []check.SlotBelief{{Key: "room:a", Bookings: c.bookings}}}, Now: func() time.Time { return now }}
		if err := o.Check([]string{"alice RPUSH room:a alice"}); (err == nil) != c.agree {
			t.Errorf("%d bookings against %+v: agree=%v, got %v", c.bookings, c.server["room:a"], c.agree, err)
		}
	}
}

// TestDivergenceSays: a divergence names the step, both states and the
// schedule so far.
func TestDivergenceSays(t *testing.T) {
	o := &Oracle{Server: lockKey("tb", 5*time.Second), Checker: beliefs{locks: []check.LockBelief{held("ta", 4*time.Second)}}, Now: func() time.Time { return now }}
	err := o.Check([]string{"alice SET lock:a ta NX PX 5000", "bob SET lock:a tb PX 5000"})
	var d *Divergence
	if !errors.As(err, &d) {
		t.Fatalf("no divergence: %v", err)
	}
	d.Choices = []int{0, 1}
	want := `the checker diverged from the server after step 2 (bob SET lock:a tb PX 5000):
  lock:a: the checker believes "ta", 4s left; the server holds "tb", 5s left
the schedule so far (choices 0,1):
  1. alice SET lock:a ta NX PX 5000
  2. bob SET lock:a tb PX 5000`
	if got := d.Error(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(err.Error(), "after step 2") {
		t.Error(err)
	}
}
