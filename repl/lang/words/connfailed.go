package words

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/locklab/locklab/repl/cli/session"
)

// ConnFailed reports a connection that could not be made or broke, in
// redis-cli's words plus what to do about it.
func ConnFailed(ctx context.Context, stderr io.Writer, t session.Target, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if gate := (*session.GateError)(nil); errors.As(err, &gate) {
		fmt.Fprintln(stderr, "locklab:", gate.Err) // not sent: the connection is fine
		return Status(1)
	}
	if errors.Is(err, session.ErrReplyLost) {
		fmt.Fprintln(stderr, "Error:", err) // a fault explore chose: the connection is fine
		return Status(1)
	}
	fmt.Fprintln(stderr, session.Describe(err, t))
	if session.IsAuthError(err) {
		fmt.Fprintln(stderr, "hint: check the credentials (-a/--pass, --user, REDISCLI_AUTH, or the -u URL); the next command tries again.")
	}
	if session.IsServerError(err) {
		return Status(1)
	}
	switch {
	case t.Embedded && session.IsDropped(err):
		fmt.Fprintln(stderr, "hint: the embedded Redis closed this session's connection (after a script it could not answer, or CLIENT KILL); the next command connects again.")
	case t.Embedded:
		fmt.Fprintln(stderr, "hint: the embedded Redis has stopped; restart locklab")
	case t.Role != "":
		fmt.Fprintf(stderr, "hint: %s is gone or cut off; after `promote replica`, `@NAME on primary CMD` talks to the new primary, "+
			"and `cluster down` brings every session back.\n", t.Label())
	case session.IsDropped(err):
		fmt.Fprintf(stderr, "hint: %s closed this session's connection (a crash, a restart, CLIENT KILL or its idle timeout); "+
			"the next command connects again, on the same database.\n", t.Label())
	default:
		fmt.Fprintf(stderr, "hint: %s The next command tries again.\n", reachHint(t))
	}
	return Status(1)
}

// ErrServerDown is the cause of a script's end at its first command that
// could not reach its own server (context.Cause of the run's context): a
// word that was waiting for a reply then says it got none.
var ErrServerDown = errors.New("the run's server could not be reached")

// Unreachable reports whether err is a failure to reach t at all (no
// server there, a wrong host, a timeout), rather than a connection that
// broke, a refused password, the embedded Redis, or a node of the lab's
// cluster, which a script may crash on purpose.
func Unreachable(err error, t session.Target) bool {
	var gate *session.GateError
	return !errors.As(err, &gate) && !errors.Is(err, session.ErrReplyLost) && !session.IsServerError(err) && !session.IsDropped(err) && !t.Embedded && t.Role == ""
}

// ServerDown reports that a script's own server could not be reached,
// once for the whole run, which stops there.
func ServerDown(stderr io.Writer, t session.Target, err error) {
	fmt.Fprintln(stderr, session.Describe(err, t))
	fmt.Fprintf(stderr, "hint: %s The run stopped at this command: nothing after it was sent.\n", reachHint(t))
}

// reachHint is what to do when no Redis answers where t points.
func reachHint(t session.Target) string {
	return fmt.Sprintf("is a Redis running at %s? %s; without -h/-p/-u locklab uses its embedded Redis.", t.Label(), startOne(t))
}

// startOne says how to start a Redis where t points: the lab's compose
// file listens on 6379; elsewhere redis-server takes the port.
func startOne(t session.Target) string {
	_, port, err := net.SplitHostPort(t.Addr)
	switch {
	case err != nil || t.Network == "unix":
		return "start one there"
	case port == "6379":
		return "`docker compose up -d` starts one"
	}
	return "`redis-server --port " + port + "` starts one (the lab's compose.yaml listens on 6379)"
}
