package commands

import (
	"net"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// errorOf sends words to the server on c and returns the text of its
// error reply, or "" for a reply that is not an error.
func errorOf(c *redistest.Conn, words []string) string {
	if r, _ := c.Do(words...); r.IsError() {
		return r.Str
	}
	return ""
}

// version returns the redis_version of the server on c.
func version(c *redistest.Conn) string {
	r, _ := c.Do("INFO", "server")
	for _, l := range strings.Split(r.Str, "\r\n") {
		if v, ok := strings.CutPrefix(l, "redis_version:"); ok {
			return v
		}
	}
	return "unknown"
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
	rc := redistest.Dial(t, redistest.Real(t))
	isArity := regexp.MustCompile(`^(ERR|EXECABORT Transaction discarded because of:) wrong number of arguments for '[^']+' command$`)
	check := func(words []string) {
		t.Helper()
		server := errorOf(rc, words)
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
	if v := version(rc); v != ServerVersion {
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
	cli := redistest.NeedProgram(t, "redis-cli")
	addr := redistest.Real(t)
	if v := version(redistest.Dial(t, addr)); v != ServerVersion {
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
