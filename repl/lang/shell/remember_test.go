package shell

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/lines"
)

// TestHistoryLeavesOutWhatSentASecret: an entry that sent a secret to a
// server is not handed to the history, however the secret was spelled;
// the entries around it are, in order. What decides is what was sent:
// the history here is what the shell hands over, before the REPL's own
// look at the text.
func TestHistoryLeavesOutWhatSentASecret(t *testing.T) {
	sh, _, errOut := newTestShell(t, redistest.Embedded(t), 0, "")
	typed := []string{
		"SET k1 v1",
		"PING;AUTH pw-semicolon",
		"echo $(AUTH pw-subst)",
		"x=$(AUTH pw-subst2)",
		`A\UTH pw-backslash`,
		"AU''TH pw-quotes",
		"true&&AUTH pw-andand",
		"a=AUTH; $a pw-variable",
		"CONFIG SET tls-key-file-pass pw-config",
		"HELLO 3 AUTH default pw-hello",
		"ACL SETUSER u on '>pw-acl'", // unquoted, > would be a redirection
		"MIGRATE 127.0.0.1 1 k 0 100 AUTH pw-migrate",
		"redis-cli -a pw-cli PING",
		"c=redis-cli; f=-a; $c $f pw-cli2 PING",
		"docker exec redis-lesson redis-cli -u redis://u:pw-url@127.0.0.1:1 PING",
		"AUTH pw-failed; no-such-word",
		"sleep 0.1 && $a pw-job &", // held until no job runs: the job sends after the entry returned
		"GET k1",
		"if true; then",
		"  $a pw-if",
		"fi",
		"echo done",
	}
	lr := &remembering{Reader: lines.From(strings.NewReader(strings.Join(typed, "\n") + "\n"))}
	sh.Run(context.Background(), Source{Lines: lr, OnEntry: func(context.CancelFunc) {}}) // as the REPL: the run waits for its jobs at the end
	want := []string{"SET k1 v1\n", "GET k1\n", "echo done\n"}
	if !slices.Equal(lr.history, want) {
		t.Errorf("history %q, want %q (stderr:\n%s)", lr.history, want, errOut)
	}
}

// TestHistoryLeavesOutAnInterruptedSecret: an entry that sent a secret
// and was then cut short by Ctrl-C is left out as well.
func TestHistoryLeavesOutAnInterruptedSecret(t *testing.T) {
	addr := redistest.Embedded(t)
	sh, _, _ := newTestShell(t, addr, 0, "")
	blpop := make(chan struct{}, 1)
	sh.cfg.Sessions.Use(func(next session.Do) session.Do {
		return func(ctx context.Context, c *session.Conn, args []string) (session.Event, error) {
			if strings.EqualFold(args[0], "BLPOP") {
				blpop <- struct{}{} // the AUTH before it went out and was answered
			}
			return next(ctx, c, args)
		}
	})
	cancels := make(chan context.CancelFunc, 8)
	lr := &remembering{Reader: lines.From(strings.NewReader("PING\na=AUTH; $a pw-cut; BLPOP q 0\nGET k\n"))}
	src := Source{Lines: lr, OnEntry: func(c context.CancelFunc) {
		if c != nil {
			cancels <- c
		}
	}}
	done := make(chan error, 1)
	go func() { done <- sh.Run(context.Background(), src) }()
	<-cancels // PING's
	cancel := <-cancels
	<-blpop // AUTH went out; BLPOP goes (and blocks, or is cut on its way)
	cancel()
	<-done
	if want := []string{"PING\n", "GET k\n"}; !slices.Equal(lr.history, want) {
		t.Errorf("history %q, want %q", lr.history, want)
	}
}
