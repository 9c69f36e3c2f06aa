package term

import (
	"fmt"

	"github.com/locklab/locklab/repl/cli/session"
)

// Prompt is redis-cli's prompt for a session: `127.0.0.1:6379> `, with
// `[db]` when not on database 0 and `(TX)` inside MULTI, or
// `not connected> ` after the server could not be reached. The embedded
// server shows as `embedded`. It never shows credentials.
func Prompt(s *session.Session, t session.Target) string {
	if !s.Connected() {
		return "not connected> "
	}
	p := t.Label()
	if db := s.DB(); db != 0 {
		p += fmt.Sprintf("[%d]", db)
	}
	if s.InTx() {
		p += "(TX)"
	}
	return p + "> "
}
