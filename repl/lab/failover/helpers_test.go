package failover

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		helperMain(mode) // never returns
	}
	os.Exit(m.Run())
}

// start brings a topology up for the test and closes it when the test
// ends. Without redis-server the test is skipped, except under CI=true.
func start(t testing.TB, extra ...string) *Topology {
	t.Helper()
	top, err := Up(context.Background(), t.TempDir(), extra...)
	redistest.SkipIfNoRedis(t, err)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(top.Close)
	return top
}

// client is a named connection that fails the test on a connection error
// (Redis error replies are replies).
type client struct {
	t    testing.TB
	conn *session.Conn
}

func connect(t testing.TB, addr, name string) *client {
	c := &client{t: t, conn: dial(addr, name)}
	t.Cleanup(c.conn.Close)
	return c
}

func (c *client) do(args ...string) resp.Reply {
	c.t.Helper()
	r, err := do(c.conn, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

// do runs a command with a 10 s limit; safe from any goroutine.
func do(c *session.Conn, args ...string) (resp.Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := c.Do(ctx, args)
	if err != nil {
		return r, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return r, nil
}

func isOK(r resp.Reply) bool           { return r.Kind == resp.Status && r.Str == "OK" }
func isInt(r resp.Reply, n int64) bool { return r.Kind == resp.Int && r.Int == n }

// eventually polls cond every 10 ms for up to limit.
func eventually(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// holds polls cond every 10 ms for d and reports whether it held every
// time: the check of something that must not happen.
func holds(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if !cond() {
			return false
		}
	}
	return cond()
}

// hidden is how many of p's connections ended with their end hidden
// from a side a cut leads to.
func (p *Proxy) hidden() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for l := range p.links {
		if l.broken.Load() {
			n++
		}
	}
	return n
}

// inParallel runs n copies of run at once, each with its own directory,
// and returns their errors in order. The lesson's runs go through this
// rather than t.Parallel, which would run them -parallel (GOMAXPROCS) at a
// time: they spend their time waiting, not computing.
func inParallel(t *testing.T, n int, run func(i int, dir string) error) []error {
	t.Helper()
	errs := make([]error, n)
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = t.TempDir()
	}
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			errs[i] = run(i, dirs[i])
		}()
	}
	for range n {
		<-done
	}
	return errs
}

// rawWait sends WAIT 1 200 as the first command of a new connection and
// returns its answer (session connections say HELLO first).
func rawWait(addr string) (int64, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write(resp.Command("WAIT", "1", "200")); err != nil {
		return 0, err
	}
	r, _, err := resp.NewReader(c).Read()
	if err != nil {
		return 0, fmt.Errorf("raw WAIT: %w", err)
	}
	if r.Kind != resp.Int {
		return 0, fmt.Errorf("raw WAIT: %v", r)
	}
	return r.Int, nil
}

// redisVersion is the version of the redis-server on PATH.
func redisVersion(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("redis-server", "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(out)) {
		if v, ok := strings.CutPrefix(f, "v="); ok {
			return v
		}
	}
	t.Fatalf("redis-server --version: %s", out)
	return ""
}
