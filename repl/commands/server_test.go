package commands

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/redistest"
)

// rawConn sends commands to a server and returns the text of each reply's
// error (or "" for a reply that is not an error), with plain RESP2.
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, c: c, r: bufio.NewReader(c)}
}

func (rc *rawConn) errorOf(words []string) string {
	rc.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(words))
	for _, w := range words {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(w), w)
	}
	rc.c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := rc.c.Write([]byte(b.String())); err != nil {
		rc.t.Fatal(err)
	}
	line := rc.readLine()
	if line[0] == '-' {
		return line[1:]
	}
	rc.skip(line)
	return ""
}

// version returns the server's redis_version.
func (rc *rawConn) version() string {
	rc.t.Helper()
	rc.c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := rc.c.Write([]byte("*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n")); err != nil {
		rc.t.Fatal(err)
	}
	head := rc.readLine()
	n, err := strconv.Atoi(head[1:])
	if head[0] != '$' || err != nil {
		rc.t.Fatalf("INFO server: %q", head)
	}
	buf := make([]byte, n+2)
	if _, err := io.ReadFull(rc.r, buf); err != nil {
		rc.t.Fatal(err)
	}
	for _, l := range strings.Split(string(buf), "\r\n") {
		if v, ok := strings.CutPrefix(l, "redis_version:"); ok {
			return v
		}
	}
	return "unknown"
}

func (rc *rawConn) readLine() string {
	rc.t.Helper()
	line, err := rc.r.ReadString('\n')
	if err != nil {
		rc.t.Fatal(err)
	}
	return strings.TrimSuffix(line, "\r\n")
}

// skip reads the rest of a non-error reply that began with line.
func (rc *rawConn) skip(line string) {
	rc.t.Helper()
	n, _ := strconv.Atoi(line[1:])
	switch line[0] {
	case '$':
		if n >= 0 {
			buf := make([]byte, n+2)
			if _, err := io.ReadFull(rc.r, buf); err != nil {
				rc.t.Fatal(err)
			}
		}
	case '*':
		for i := 0; i < n; i++ {
			rc.skip(rc.readLine())
		}
	}
}

// arityCases: commands a lock lab uses, and others; words as typed.
var arityCases = [][]string{
	{"set", "k"}, {"SET"}, {"get"}, {"get", "a", "b"}, {"getdel"}, {"del"}, {"exists"},
	{"expire", "k"}, {"pexpire", "k"}, {"ttl"}, {"pttl", "a", "b"}, {"persist"},
	{"incr"}, {"incrby", "k"}, {"decr"}, {"setnx", "k"}, {"setex", "k", "1"},
	{"psetex", "k"}, {"getset", "k"}, {"mset", "k"}, {"mget"}, {"append", "k"},
	{"eval", "return 1"}, {"evalsha", "x"}, {"watch"}, {"multi", "x"}, {"exec", "x"},
	{"discard", "x"}, {"unwatch", "x"}, {"hset", "k", "f"}, {"hget", "k"}, {"lpush", "k"},
	{"blpop", "k"}, {"publish", "ch"}, {"subscribe"}, {"keys"}, {"type"}, {"object", "encoding"},
	{"client", "setname"}, {"CLIENT", "SETNAME", "a", "b"}, {"client"}, {"client", "info", "x"},
	{"config", "get"}, {"config", "set", "maxmemory"}, {"script", "load"}, {"script", "exists"},
	{"function", "load"}, {"fcall", "f"}, {"xadd", "s", "*"}, {"zadd", "k", "1"},
	{"wait", "1"}, {"select"}, {"lpop"}, {"dbsize", "x"}, {"time", "x"},
	// Right arity, or not an arity problem: CheckArity must say nil.
	{"get", "k"}, {"set", "k", "v", "nx", "px", "100"}, {"config", "bogus"}, {"client", "getname"},
	{"ping"}, {"echo", "x"},
}

func TestCheckArityMatchesServer(t *testing.T) {
	rc := dial(t, redistest.Real(t))
	isArity := regexp.MustCompile(`^(ERR|EXECABORT Transaction discarded because of:) wrong number of arguments for '[^']+' command$`)
	check := func(words []string) {
		t.Helper()
		server := rc.errorOf(words)
		if strings.HasPrefix(server, "ERR unknown command") {
			t.Logf("%q: this redis-server lacks it: %s", words, server)
			return
		}
		var got string
		if err := CheckArity(words); err != nil {
			got = err.Error()
		}
		if !isArity.MatchString(server) {
			server = "" // not an arity error (maybe none at all)
		}
		if got != server {
			t.Errorf("CheckArity(%q) = %q, redis-server says %q", words, got, server)
		}
	}
	for _, w := range arityCases {
		check(w)
	}
	// Every command and subcommand with one word too few, and those of a
	// fixed arity with one word too many. Redis rejects these before it
	// runs them, so nothing is executed (nor blocks). Only against the
	// version the table was read from: others differ in a few arities.
	if v := rc.version(); v != ServerVersion {
		t.Logf("redis-server %s, table from %s: not checking every command", v, ServerVersion)
		return
	}
	for _, c := range All() {
		name := strings.Fields(c.Name)
		n := c.Arity
		if n < 0 {
			n = -n
		}
		filler := func(count int) []string {
			w := append([]string(nil), name...)
			for len(w) < count {
				w = append(w, "0")
			}
			return w
		}
		if n-1 >= len(name) {
			check(filler(n - 1))
		}
		if c.Arity > 0 {
			check(filler(c.Arity + 1))
		}
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestSyntaxMatchesRedisCLI compares Syntax with the syntax line of
// redis-cli's own `help CMD` against a real server (redis-cli 7.x builds
// it from the server's COMMAND DOCS).
func TestSyntaxMatchesRedisCLI(t *testing.T) {
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	addr := redistest.Real(t)
	if v := dial(t, addr).version(); v != ServerVersion {
		t.Skipf("redis-server %s documents commands differently from %s, the table's", v, ServerVersion)
	}
	host, port, _ := net.SplitHostPort(addr)
	for _, name := range []string{
		"SET", "GET", "GETDEL", "DEL", "EXPIRE", "PEXPIRE", "SETNX", "EVAL", "EVALSHA", "WATCH",
		"MULTI", "ZADD", "ZRANGE", "MIGRATE", "XADD", "GEORADIUS", "BITFIELD_RO", "SCAN",
		"CLIENT SETNAME", "CLIENT KILL", "CONFIG GET", "CONFIG SET", "SCRIPT LOAD", "OBJECT ENCODING",
	} {
		c := Get(name)
		if c == nil {
			t.Errorf("no %s", name)
			continue
		}
		args := append([]string{"-h", host, "-p", port, "help"}, strings.Fields(name)...)
		out, err := exec.Command(cli, args...).Output()
		if err != nil {
			t.Fatalf("redis-cli help %s: %v", name, err)
		}
		// The entry's first line is "  NAME params", bold name and grey
		// params; `help CLIENT` would also list every CLIENT subcommand.
		var line string
		for _, l := range strings.Split(ansi.ReplaceAllString(string(out), ""), "\n") {
			l = strings.TrimRight(l, " \r")
			if l == "  "+name || strings.HasPrefix(l, "  "+name+" ") {
				line = strings.TrimPrefix(l, "  ")
				break
			}
		}
		if got := c.Syntax(); got != line {
			t.Errorf("Syntax(%s):\n got %q\nwant %q (redis-cli)", name, got, line)
		}
	}
}
