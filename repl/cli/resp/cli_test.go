package resp_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

// This file holds what the golden-file generator and the confirm test
// share: a real redis-server, a raw RESP connection to it that keeps the
// exact reply bytes, and the real redis-cli run against it.

// realRedis starts a redis-server that allows DEBUG PROTOCOL and returns
// its address, after checking that redis-cli is installed too. Without
// redis-cli the test is skipped, except under CI=true where it fails.
func realRedis(t *testing.T) string {
	t.Helper()
	redistest.NeedProgram(t, "redis-cli")
	return redistest.Real(t, "--enable-debug-command", "yes")
}

// dial connects to addr with a raw connection, so the test sees the reply
// bytes exactly as redis-server sent them, and for proto 3 switches it to
// RESP3 with HELLO 3.
func dial(t *testing.T, addr string, proto int) *redistest.Conn {
	t.Helper()
	c := redistest.Dial(t, addr)
	if proto == 3 {
		if r, _ := c.Do("HELLO", "3"); r.Kind != resp.Map {
			t.Fatalf("HELLO 3: %v", r)
		}
	}
	return c
}

// reset empties the server and runs the setup commands, which must not
// fail, so that every run of a command starts from the same state.
func reset(t *testing.T, c *redistest.Conn, setup [][]string) {
	t.Helper()
	for _, args := range append([][]string{{"FLUSHALL"}}, setup...) {
		if r, _ := c.Do(args...); r.IsError() {
			t.Fatalf("setup %q: %v", args, r)
		}
	}
}

// cliOpts says how to run redis-cli.
type cliOpts struct {
	proto int  // 2, or 3 for -3
	tty   bool // --no-raw: the terminal format, with stdout still a pipe
	// wait, if set, is how long to let a command that never returns
	// (SUBSCRIBE) print before redis-cli is killed.
	wait time.Duration
}

// redisCLI runs the real redis-cli against addr and returns its stdout.
func redisCLI(t *testing.T, addr string, o cliOpts, args []string) string {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	argv := []string{"-h", host, "-p", port}
	if o.proto == 3 {
		argv = append(argv, "-3")
	}
	if o.tty {
		argv = append(argv, "--no-raw")
	}
	ctx := context.Background()
	if o.wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.wait)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "redis-cli", append(argv, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && (o.wait == 0 || ctx.Err() == nil) {
		t.Fatalf("redis-cli %q: %v: %s", args, err, stderr.Bytes())
	}
	return string(out)
}

// pubsubBanner is what redis-cli prints in the terminal format before the
// replies to SUBSCRIBE.
const pubsubBanner = "Reading messages... (press Ctrl-C to quit)\n"

// allBytes is every byte value once, 0x00 to 0xff.
func allBytes() string {
	var b strings.Builder
	for i := range 256 {
		b.WriteByte(byte(i))
	}
	return b.String()
}
