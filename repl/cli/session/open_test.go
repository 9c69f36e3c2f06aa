package session_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/locklab/locklab/repl/cli/session"
)

// TestOpenBound: past MaxSessions a new session is refused with
// ErrTooManySessions, while a session already open, and main, still
// open. (One connection per @NAME with no bound exhausted a real
// server's maxclients.)
func TestOpenBound(t *testing.T) {
	set := session.NewSet(session.Target{Network: "tcp", Addr: "127.0.0.1:1"})
	t.Cleanup(set.Close)
	for i := range session.MaxSessions {
		if _, err := set.Open("s" + strconv.Itoa(i)); err != nil {
			t.Fatalf("session %d refused: %v", i, err)
		}
	}
	if _, err := set.Open("one-more"); !errors.Is(err, session.ErrTooManySessions) {
		t.Errorf("session %d: %v, want ErrTooManySessions", session.MaxSessions+1, err)
	}
	for _, name := range []string{"s0", session.Main} {
		if _, err := set.Open(name); err != nil {
			t.Errorf("Open(%q) refused: %v", name, err)
		}
	}
}
