package record

import (
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
)

// TestTimelineHidesSecrets: the timeline shows neither a password sent
// nor one the server's reply quotes back (an unknown command's error).
func TestTimelineHidesSecrets(t *testing.T) {
	r := New()
	now := time.Now()
	args := []string{"CONFIG", "SET", "requirepass", "pw-1"}
	reply := resp.Reply{Kind: resp.Error, Str: "ERR unknown command `CONFIG`, with args beginning with: `SET`, `requirepass`, `pw-1`, "}
	r.Observe(session.Event{Session: session.Main, Args: args, Reply: reply, Start: now, End: now}, check.Event{Session: session.Main, Args: args}, nil, func([]check.Note) {})
	for _, e := range r.Commands() {
		if shown := strings.Join(e.Args, " ") + " " + e.Reply; strings.Contains(shown, "pw-1") {
			t.Errorf("the timeline shows %q", shown)
		}
	}
}
