package shell

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/lines"
)

// nestedBooking is the lesson's race one job down: the bidders are jobs
// of a job. The interpreter's wait sees only `both`, which ends as soon
// as it has started them.
const nestedBooking = "both(){ book alice & book bob & }; both & wait"

// TestNestedJobsJudged runs nestedBooking 1,000 times, as `locklab -c`
// does: every run waits for the jobs of its job, so that both bookings
// are made, recorded and judged before its verdict. Before, the run
// ended with `both`, and the process with it: the bookings were cut off
// (none showed, and 14 runs in 100 said "all clear"). The runs go 50 at
// a time, each on a shell of its own, ten to a server. Each bidder's
// work ends once both have checked the count (see pairClock), so that
// the double booking owes nothing to how fast the machine starts them.
// The whole costs 4.5 s of CPU (14 s with -race), mostly in the runs'
// connections: on two cores, 2.3 s of wall clock (9 s with -race) at a
// load of 3, 9 to 15 s (42 s) when other work kept it at 17 to 22.
func TestNestedJobsJudged(t *testing.T) {
	const runs, atOnce, perServer = 1000, 50, 10
	addrs := make([]string, atOnce/perServer)
	for i := range addrs {
		addrs[i] = redistest.Embedded(t)
	}
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	start := time.Now()
	for w := range atOnce {
		wg.Go(func() {
			for i := w; i < runs; i += atOnce {
				if msg := judgedRun(t, addrs[w/perServer], w%perServer, "", nestedBooking); msg != "" {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("run %d: %s", i, msg))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d runs in %v", runs, time.Since(start).Round(time.Millisecond))
	if len(failures) > 0 {
		t.Errorf("%d of %d runs went wrong; the first:\n%s", len(failures), runs, failures[0])
	}
}

// pairClock is the wall clock, except that a sleep (a bidder's work
// between its check and its booking) ends as soon as a second one has
// begun: both bidders have checked the count before either books, however
// late the second starts. A sleep alone ends after 5 s: the other bidder
// was lost, or booked first.
type pairClock struct {
	clock.Real
	mu     sync.Mutex
	asleep chan struct{} // the first sleeper's; nil when none sleeps
}

func (c *pairClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	if c.asleep != nil {
		close(c.asleep) // the second: both wake
		c.asleep = nil
		c.mu.Unlock()
		return nil
	}
	wake := make(chan struct{})
	c.asleep = wake
	c.mu.Unlock()
	select {
	case <-wake:
		return nil
	case <-time.After(5 * time.Second):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// doubleBooked says what is wrong with a run's output: "" when alice and
// bob both booked, and after that the verdict said DOUBLE BOOKING.
func doubleBooked(out, errOut string) string {
	verdict := strings.Index(out, "verdict: DOUBLE BOOKING")
	if verdict < 0 {
		return "no DOUBLE BOOKING verdict; output:\n" + out + errOut
	}
	for _, who := range []string{"alice", "bob"} {
		if at := strings.Index(out, who+": booked (saw count=0)"); at < 0 || verdict < at {
			return fmt.Sprintf("want %s's booking, then the verdict DOUBLE BOOKING; output:\n%s%s", who, out, errOut)
		}
	}
	return ""
}

// newNotedShell is newTestShell with notes and verdicts on, as the REPL,
// scripts and -c have them, and bidders that always race (pairClock);
// done closes its connections.
func newNotedShell(t *testing.T, addr string, db int, dir string) (_ *Shell, out, errOut *syncBuffer, done func()) {
	sessions := session.NewSet(session.Target{Network: "tcp", Addr: addr, DB: db})
	out, errOut = &syncBuffer{}, &syncBuffer{}
	sh, err := New(Config{Sessions: sessions, Stdout: out, Stderr: errOut, Dir: dir, Notes: true, Clock: &pairClock{}, Observe: lab.Observe})
	if err != nil {
		t.Error(err) // from a test's goroutine: no Fatal
	}
	return sh, out, errOut, sessions.Close
}

// TestJobsOfJobsAnyDepth: whatever shell starts the bidders (a job's
// function's job, a subshell, the left side of a pipeline, a command
// substitution, a case, a script a job runs), the run's end waits for
// them and judges what they did. Each way runs 10 times.
func TestJobsOfJobsAnyDepth(t *testing.T) {
	dir := t.TempDir()
	script := "book alice & book bob &\n" // no wait: its own end waits
	if err := os.WriteFile(filepath.Join(dir, "bid.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := redistest.Embedded(t)
	for i, line := range []string{
		"g(){ book alice & book bob & }; f(){ g & }; f & wait",
		"( book alice & book bob & ); wait",
		"{ book alice & book bob & } | :; wait",
		"x=$(book alice & book bob &); wait",
		"case x in x) book alice & book bob & ;; esac; wait",
		"./bid.sh & wait",
		"{ { book alice & book bob & } & } &",
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			for n := range 10 {
				if msg := judgedRun(t, addr, i, dir, line); msg != "" {
					t.Fatalf("%s, run %d: %s", line, n, msg)
				}
			}
		})
	}
}

// judgedRun runs line as `locklab -c` does, in a shell of its own that
// runs in dir, on database db of the server at addr (its slot emptied
// first), and says what went wrong (see doubleBooked).
func judgedRun(t *testing.T, addr string, db int, dir, line string) string {
	sh, out, errOut, done := newNotedShell(t, addr, db, dir)
	defer done()
	for _, src := range []Source{
		{Lines: lines.From(strings.NewReader("DEL room:2pm:bookings >/dev/null")), Whole: true},
		{Lines: lines.From(strings.NewReader(line)), Whole: true, Summary: "-c"},
	} {
		if err := sh.Run(context.Background(), src); err != nil {
			return fmt.Sprintf("%v\n%s%s", err, out, errOut)
		}
	}
	return doubleBooked(out.String(), errOut.String())
}

// TestPromptWaitsForJobsOfJobs: typed at the prompt, an entry that ends
// in wait gets its verdict once the jobs of its jobs are done too (its
// wait saw only both), not before their bookings.
func TestPromptWaitsForJobsOfJobs(t *testing.T) {
	sh, out, errOut, done := newNotedShell(t, redistest.Embedded(t), 0, "")
	defer done()
	src := Source{Lines: lines.From(strings.NewReader(nestedBooking + "\n")), Prompt: func() string { return "> " }}
	if err := sh.Run(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if msg := doubleBooked(out.String(), errOut.String()); msg != "" {
		t.Error(msg)
	}
}
