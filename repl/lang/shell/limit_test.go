package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/words"
)

// TestJobLimit: past the limit of background jobs, the shell that starts
// one more stops with an error that names the limit, and the jobs it did
// start still run. Once they end, their slots are free again. (The
// limit is 10,000; the test makes it 3.)
func TestJobLimit(t *testing.T) {
	sessions := session.NewSet(session.Target{Network: "tcp", Addr: redistest.Embedded(t)})
	t.Cleanup(sessions.Close)
	var out, errOut syncBuffer
	sh, err := New(Config{Sessions: sessions, Stdout: &out, Stderr: &errOut, MaxJobs: 3, Observe: lab.Observe})
	if err != nil {
		t.Fatal(err)
	}
	script := "for i in 1 2 3 4 5; do { sleep 0.2; echo \"ran $i\"; } & done; echo not reached"
	err = sh.Run(context.Background(), Source{Lines: lines.From(strings.NewReader(script)), Whole: true})
	if words.ExitCode(err) != 1 || words.Describe(err) != "" {
		t.Errorf("status %d and %q, want 1 and nothing more to say (the error is already printed)", words.ExitCode(err), words.Describe(err))
	}
	const want = "locklab: too many background jobs (3 running): the lab runs at most 3 at once"
	if got := errOut.String(); strings.Count(got, want) != 1 {
		t.Errorf("stderr %q, want once %q", got, want)
	}
	if strings.Contains(out.String(), "not reached") {
		t.Errorf("the script went on past the limit: %q", out.String())
	}
	run(t, sh, "sleep 0.3") // the three jobs end
	for _, n := range []string{"1", "2", "3"} {
		if !strings.Contains(out.String(), "ran "+n) {
			t.Errorf("job %s did not run: %q", n, out.String())
		}
	}
	out.b.Reset()
	run(t, sh, "echo again & echo and & wait")
	if got := out.String(); !strings.Contains(got, "again") || !strings.Contains(got, "and") {
		t.Errorf("after the jobs ended, new ones did not run: %q", got)
	}
}
