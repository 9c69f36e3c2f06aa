package shell

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lang/lines"
)

// syncBuffer is a bytes.Buffer that concurrent jobs may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTestShell makes a shell on the server at addr, with its output
// captured, running in dir.
func newTestShell(t *testing.T, addr string, db int, dir string) (*Shell, *syncBuffer, *syncBuffer) {
	t.Helper()
	sessions := session.NewSet(session.Target{Network: "tcp", Addr: addr, DB: db})
	sessions.Use(probe.New().Middleware())
	t.Cleanup(sessions.Close)
	var out, errOut syncBuffer
	sh, err := New(Config{Sessions: sessions, Stdout: &out, Stderr: &errOut, Dir: dir, Observe: lab.Observe})
	if err != nil {
		t.Fatal(err)
	}
	return sh, &out, &errOut
}

// run runs one entry and fails the test on an unexpected error.
func run(t *testing.T, sh *Shell, src string) {
	t.Helper()
	if err := sh.Run(context.Background(), Source{Lines: lines.From(strings.NewReader(src))}); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
}

// TestLessonRace runs the lesson's two booking scripts, as the lesson
// does (`./book_no_lock.sh alice & ./book_no_lock.sh bob & wait`), 20
// times on each kind of server: without the lock both bidders book (2
// bookings for 1 seat) every time; with it exactly one does.
func TestLessonRace(t *testing.T) {
	const runs = 20
	embedded := func(int) (string, int) { return redistest.Embedded(t), 0 }
	realAddr := redistest.Real(t, "--databases", fmt.Sprint(runs))
	real := func(i int) (string, int) { return realAddr, i }
	for kind, server := range map[string]func(int) (string, int){"embedded": embedded, "real": real} {
		for i := range runs {
			addr, db := server(i)
			t.Run(fmt.Sprintf("%s/%d", kind, i), func(t *testing.T) {
				t.Parallel()
				checkBookings(t, addr, db)
			})
		}
	}
}

func checkBookings(t *testing.T, addr string, db int) {
	sh, out, errOut := newTestShell(t, addr, db, "../../../scripts") // the lesson's scripts, as shipped
	run(t, sh, "DEL room:2pm:bookings lock:room:2pm > /dev/null")
	run(t, sh, "./book_no_lock.sh alice & ./book_no_lock.sh bob & wait")
	if got := strings.Count(out.String(), "booked (saw count=0)"); got != 2 {
		t.Errorf("without the lock, %d bidders booked, want 2; output:\n%s%s", got, out, errOut)
	}
	run(t, sh, "LLEN room:2pm:bookings")
	if !strings.HasSuffix(out.String(), "\n2\n") {
		t.Errorf("without the lock, LLEN = %q, want 2", out)
	}
	out.b.Reset()
	run(t, sh, "DEL room:2pm:bookings lock:room:2pm > /dev/null")
	run(t, sh, "./book_with_lock.sh alice token-alice & ./book_with_lock.sh bob token-bob & wait")
	booked := strings.Count(out.String(), "booked (saw count=0)")
	rejected := strings.Count(out.String(), "could not acquire lock, rejected immediately")
	if booked != 1 || rejected != 1 {
		t.Errorf("with the lock, %d booked and %d rejected, want 1 and 1; output:\n%s%s", booked, rejected, out, errOut)
	}
	run(t, sh, "LLEN room:2pm:bookings")
	if !strings.HasSuffix(out.String(), "\n1\n") {
		t.Errorf("with the lock, LLEN output %q, want 1", out)
	}
}

// remembering is a LineReader that keeps what goes into the history.
type remembering struct {
	lines.Reader
	history []string
}

func (r *remembering) Remember(entry string) { r.history = append(r.history, entry) }

// TestHistoryKeepsABadEntry: an entry with a syntax error goes into the
// history too, so that Up brings it back to be mended, as in bash.
func TestHistoryKeepsABadEntry(t *testing.T) {
	sh, _, _ := newTestShell(t, redistest.Embedded(t), 0, "")
	lr := &remembering{Reader: lines.From(strings.NewReader("echo first\necho )\n"))}
	sh.Run(context.Background(), Source{Lines: lr})
	if want := []string{"echo first\n", "echo )\n"}; !slices.Equal(lr.history, want) {
		t.Errorf("history %q, want %q", lr.history, want)
	}
}
