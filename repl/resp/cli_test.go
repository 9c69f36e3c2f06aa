package resp_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/redistest"
	"github.com/locklab/locklab/repl/resp"
)

// This file holds what the golden-file generator and the confirm test
// share: a real redis-server, a raw RESP connection to it that keeps the
// exact reply bytes, and the real redis-cli run against it.

// realRedis starts a redis-server that allows DEBUG PROTOCOL and returns
// its address, after checking that redis-cli is installed too. Without
// redis-cli the test is skipped, except under CI=true where it fails.
func realRedis(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("redis-cli"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-cli is not on PATH, and CI=true")
		}
		t.Skip("redis-cli is not on PATH")
	}
	return redistest.Real(t, "--enable-debug-command", "yes")
}

// rawConn is a connection that speaks RESP by hand, so the test sees the
// reply bytes exactly as redis-server sent them.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	buf  []byte // read but not yet parsed
}

// dial connects to addr and, for proto 3, switches to RESP3 with HELLO 3.
func dial(t *testing.T, addr string, proto int) *rawConn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &rawConn{t: t, conn: conn}
	if proto == 3 {
		if r, _ := c.do("HELLO", "3"); r.Kind != resp.Map {
			t.Fatalf("HELLO 3: %v", r)
		}
	}
	return c
}

// do sends the command args and returns the reply with its exact bytes.
func (c *rawConn) do(args ...string) (resp.Reply, []byte) {
	c.t.Helper()
	if _, err := c.conn.Write(encode(args)); err != nil {
		c.t.Fatal(err)
	}
	return c.read()
}

// read reads one reply, with the exact bytes it came in.
func (c *rawConn) read() (resp.Reply, []byte) {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	chunk := make([]byte, 64<<10)
	for {
		r, n, err := resp.Parse(c.buf)
		if err == nil {
			raw := bytes.Clone(c.buf[:n])
			c.buf = c.buf[n:]
			return r, raw
		}
		if !errors.Is(err, resp.ErrIncomplete) {
			c.t.Fatalf("reply %q: %v", c.buf, err)
		}
		m, err := c.conn.Read(chunk)
		if err != nil {
			c.t.Fatalf("reading a reply: %v", err)
		}
		c.buf = append(c.buf, chunk[:m]...)
	}
}

// reset empties the server and runs the setup commands, which must not
// fail, so that every run of a command starts from the same state.
func (c *rawConn) reset(setup [][]string) {
	c.t.Helper()
	for _, args := range append([][]string{{"FLUSHALL"}}, setup...) {
		if r, _ := c.do(args...); r.IsError() {
			c.t.Fatalf("setup %q: %v", args, r)
		}
	}
}

// encode writes args as a RESP array of bulk strings, as redis-cli sends
// commands.
func encode(args []string) []byte {
	b := []byte("*" + strconv.Itoa(len(args)) + "\r\n")
	for _, a := range args {
		b = append(b, "$"+strconv.Itoa(len(a))+"\r\n"+a+"\r\n"...)
	}
	return b
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
