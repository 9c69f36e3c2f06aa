package redistest

import (
	"net"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Conn is a plain RESP connection to a server: no client library between,
// no HELLO sent unless the test sends it, every reply as the server sent
// it. A connection error fails the test.
type Conn struct {
	t    testing.TB
	conn net.Conn
	r    *resp.Reader
}

// Dial connects to addr for the test and closes the connection when the
// test ends.
func Dial(t testing.TB, addr string) *Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &Conn{t: t, conn: conn, r: resp.NewReader(conn)}
}

// Do sends the command args and returns its reply (a Redis error is a
// reply) with the exact bytes it came in. It waits 10 s at the most.
func (c *Conn) Do(args ...string) (resp.Reply, []byte) {
	c.t.Helper()
	c.conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.conn.Write(resp.Command(args...)); err != nil {
		c.t.Fatalf("sending %q: %v", args, err)
	}
	return c.Read()
}

// Read reads the next reply the server sends (a subscriber's message, or
// the reply to a command sent before), waiting 10 s at the most.
func (c *Conn) Read() (resp.Reply, []byte) {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	r, raw, err := c.r.Read()
	if err != nil {
		c.t.Fatalf("reading a reply: %v", err)
	}
	return r, raw
}
