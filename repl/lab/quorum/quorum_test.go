package quorum_test

import (
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// attempt is who's SET of tok with a 10 s TTL at ms, answered OK by the
// nodes in oks and nil by the others of A..E; granted with 9.9 s of
// validity when a majority said OK.
func attempt(lab int, who, tok string, ms int, oks string) quorum.Attempt {
	a := quorum.Attempt{Lab: lab, Nodes: 5, Session: who, Key: "lock:x", Token: tok, Start: at(ms), Validity: 9900 * time.Millisecond}
	for _, n := range strings.Fields("A B C D E") {
		s := quorum.Step{Node: n, Args: []string{"SET", "lock:x", tok, "NX", "PX", "10000"}, Start: at(ms), End: at(ms + 1), Reply: check.Reply{Nil: true}}
		if strings.Contains(oks, n) {
			s.Reply = check.Reply{Str: "OK"}
		}
		a.Set = append(a.Set, s)
	}
	a.Granted = len(strings.Fields(oks)) >= 3
	return a
}

// TestTwoHolders: two majorities whose validity overlapped are TWO
// HOLDERS, named with their nodes; on another lab's nodes, or after the
// first released, they are not.
func TestTwoHolders(t *testing.T) {
	c := quorum.New()
	c.Acquired(attempt(1, "alice", "a1", 0, "A B C"))
	c.Acquired(attempt(1, "bob", "b1", 1000, "C D E"))
	c.Acquired(attempt(2, "carol", "c1", 2000, "A B C D E")) // other servers
	found, grants := c.Findings(quorum.AllLabs)
	if grants != 3 || len(found) != 1 || found[0].Kind != check.TwoHolders ||
		found[0].Text != "TWO HOLDERS on lock:x: alice (A B C) and bob (C D E) each held a majority, for 8.90s at once" {
		t.Fatalf("findings %v, %d grants", found, grants)
	}
	if found, grants := c.Findings(2); len(found) != 0 || grants != 1 {
		t.Errorf("lab 2 alone: %v, %d grants; want none, 1", found, grants)
	}
	c = quorum.New()
	c.Acquired(attempt(1, "alice", "a1", 0, "A B C D E"))
	c.Released(quorum.Release{Lab: 1, Session: "alice", Key: "lock:x", Token: "a1", At: at(500)})
	c.Acquired(attempt(1, "bob", "b1", 1000, "A B C D E"))
	if found, _ := c.Findings(quorum.AllLabs); len(found) != 0 {
		t.Errorf("after alice released: %v", found)
	}
	if o := c.Other(); len(o.Claims) != 1 || o.Claims[0] != "no two Redlock holders" {
		t.Errorf("claims %v", o.Claims)
	}
}

// TestTwoHoldersInHoldOrder: the finding names first the holder that
// held the lock first, whichever client reported its grant first (two
// racing clients report in either order: a saved Redlock schedule run
// twice named its two holders in both orders).
func TestTwoHoldersInHoldOrder(t *testing.T) {
	c := quorum.New()
	c.Acquired(attempt(1, "bob", "b1", 1000, "C D E"))
	c.Acquired(attempt(1, "alice", "a1", 0, "A B C"))
	found, _ := c.Findings(quorum.AllLabs)
	want := "TWO HOLDERS on lock:x: alice (A B C) and bob (C D E) each held a majority, for 8.90s at once"
	if len(found) != 1 || found[0].Text != want {
		t.Fatalf("findings %q, want one: %s", found, want)
	}
}

// TestTwoHoldersShowNamesQuoted: sessions named with control characters
// (a job named after a value it read) show quoted in the finding, as
// redis-cli quotes a value, so the finding stays one line.
func TestTwoHoldersShowNamesQuoted(t *testing.T) {
	c := quorum.New()
	c.Acquired(attempt(1, "alice\x1b]0;pwned\a", "a1", 0, "A B C"))
	c.Acquired(attempt(1, "bob\nverdict: ALL CLEAR", "b1", 1000, "C D E"))
	found, _ := c.Findings(quorum.AllLabs)
	want := `TWO HOLDERS on lock:x: "alice\x1b]0;pwned\a" (A B C) and "bob\nverdict: ALL CLEAR" (C D E) each held a majority, for 8.90s at once`
	if len(found) != 1 || found[0].Text != want {
		t.Fatalf("findings %q, want one: %s", found, want)
	}
}

// TestMissing: a client that says it holds the lock without a majority
// of OKs in the answers is not counted, and the verdict says why.
func TestMissing(t *testing.T) {
	c := quorum.New()
	a := attempt(1, "alice", "a1", 0, "A B")
	a.Granted = true
	c.Acquired(a)
	if found, grants := c.Findings(quorum.AllLabs); len(found) != 0 || grants != 0 {
		t.Errorf("findings %v, %d grants", found, grants)
	}
	if o := c.Other(); len(o.Missing) != 1 || o.Missing[0] != "alice said it held lock:x with 2 OK(s) of 5 in the nodes' answers" {
		t.Errorf("missing %q", o.Missing)
	}
}

// TestHolds: each node's hold runs from its OK to its release, its crash,
// or its TTL on its own clock (moved by a jump: past it, it ends at the
// jump).
func TestHolds(t *testing.T) {
	c := quorum.New()
	c.Acquired(attempt(1, "alice", "a1", 0, "A B C D"))
	c.Fault(quorum.Fault{Lab: 1, Node: "C", Kind: quorum.Jump, By: 11 * time.Second, At: at(100)})
	c.Fault(quorum.Fault{Lab: 1, Node: "B", Kind: quorum.Jump, By: 4 * time.Second, At: at(200)})
	c.Fault(quorum.Fault{Lab: 1, Node: "D", Kind: quorum.Crash, At: at(300)})
	c.Released(quorum.Release{Lab: 1, Session: "alice", Key: "lock:x", Token: "a1", At: at(400), Steps: []quorum.Step{
		{Node: "A", Reply: check.Reply{Int: 1, IsInt: true}, End: at(401)}}})
	got := map[string]string{}
	for _, h := range c.Holds(at(20000)) {
		got[h.Node] = string(h.End) + " at " + h.Until.Sub(t0).String()
	}
	want := map[string]string{"A": "released at 401ms", "B": "expired at 6.001s", "C": "expired at 100ms", "D": "crashed at 300ms"}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("node %s: %s, want %s", n, got[n], w)
		}
	}
}

// TestHoldsReadOutOfOrder: attempts are read as they end, and two that
// took turns node by node (explore's scheduler) end in either order. A
// hold read after one that began later on its node ended by what came
// next there in the node's own order: a crash read before it, else the
// later OK; the later hold is not cut by the earlier one.
func TestHoldsReadOutOfOrder(t *testing.T) {
	c := quorum.New()
	c.Fault(quorum.Fault{Lab: 1, Node: "A", Kind: quorum.Crash, At: at(50)})
	c.Fault(quorum.Fault{Lab: 1, Node: "A", Kind: quorum.Restart, At: at(50)})
	c.Acquired(attempt(1, "bob", "b1", 100, "A"))     // read first, though it began later
	c.Acquired(attempt(1, "alice", "a1", 0, "A B C")) // A's OK at 1 ms, before the crash
	c.Acquired(attempt(1, "carol", "c1", 200, "B"))   // B's OK after alice's: alice's hold there was gone
	got := map[string]string{}
	for _, h := range c.Holds(at(1000)) {
		got[h.Session+"@"+h.Node] = string(h.End) + " at " + h.Until.Sub(t0).String()
	}
	want := map[string]string{"alice@A": "crashed at 50ms", "bob@A": "held at 1s", "alice@B": "expired at 201ms", "carol@B": "held at 1s", "alice@C": "held at 1s"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
}
