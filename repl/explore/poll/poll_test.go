package poll

import (
	"errors"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// TestRepeats: what makes a poll's repeat is the same words and the same
// reply, a reply that says the command changed nothing; the command's
// name decides nothing but through the command table's flags.
func TestRepeats(t *testing.T) {
	null := resp.Reply{Kind: resp.Nil}
	one := resp.Reply{Kind: resp.Int, Int: 1}
	ok := resp.Reply{Kind: resp.Status, Str: "OK"}
	for _, c := range []struct {
		last, now string
		lastR, r  resp.Reply
		want      bool
	}{
		{"SET lock b NX PX 2000", "SET lock b NX PX 2000", null, null, true},  // a refused SET NX, retried
		{"EXISTS lock", "EXISTS lock", one, one, true},                        // a read-only command
		{"GET k", "GET k", null, null, true},                                  // the same
		{"SET lock b NX PX 2000", "SET lock b NX PX 2000", null, ok, false},   // the answer changed: it took the lock
		{"SET lock b NX PX 2000", "SET lock b NX PX 1000", null, null, false}, // other words
		{"SET x 1", "SET x 1", ok, ok, false},                                 // a write that wrote again
		{"PEXPIRE lock 300", "PEXPIRE lock 300", one, one, false},             // a lock refreshed: it changes the deadline
		{"EVAL return nil 0", "EVAL return nil 0", null, null, false},         // a script: its flags say nothing
		{"NOSUCH a", "NOSUCH a", null, null, false},                           // not in the table
	} {
		last := Of(strings.Fields(c.last), session.Event{Reply: c.lastR})
		now := Of(strings.Fields(c.now), session.Event{Reply: c.r})
		if got := Repeats(last, now); got != c.want {
			t.Errorf("%s -> %v, then %s -> %v: repeats %v, want %v", c.last, c.lastR, c.now, c.r, got, c.want)
		}
	}
	gone := Of([]string{"GET", "k"}, session.Event{Err: errors.New("connection reset")})
	if get := Of([]string{"GET", "k"}, session.Event{Reply: null}); Repeats(get, gone) || Repeats(gone, get) {
		t.Error("a command with no reply repeats a poll")
	}
}
