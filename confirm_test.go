package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/redistest"
)

// confirmCommands run, in order, through both the real redis-cli and
// locklab against one real redis-server. Every reply type and the
// formatting corners are here: statuses, bulk strings with escapes,
// nested arrays with two-digit indexes, errors, nil, empty arrays.
var confirmCommands = [][]string{
	{"FLUSHALL"},
	{"SET", "k", "v"},
	{"GET", "k"},
	{"GET", "missing"},
	{"SET", "lock:demo", "my-token", "PX", "5000", "NX"},
	{"SET", "lock:demo", "other", "PX", "5000", "NX"},
	{"SET", "esc", "tab\there \"quoted\" back\\slash new\nline \x01 caf\xc3\xa9"},
	{"GET", "esc"},
	{"RPUSH", "room:2pm:bookings", "bob", "alice"},
	{"LRANGE", "room:2pm:bookings", "0", "-1"},
	{"LRANGE", "nothing", "0", "-1"},
	{"LLEN", "room:2pm:bookings"},
	{"INCR", "k"},
	{"HSET", "h", "f1", "v1", "f2", "v2"},
	{"HGETALL", "h"},
	{"ZADD", "z", "1", "a", "2.5", "b"},
	{"ZRANGE", "z", "0", "-1", "WITHSCORES"},
	{"EVAL", "return {1,'a',{2,'b',{}},redis.error_reply('nope'),false}", "0"},
	{"EVAL", "local t = {} for i = 1, 12 do t[i] = i end return t", "0"},
	{"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end", "1", "lock:demo", "wrong-token"},
	{"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end", "1", "lock:demo", "my-token"},
	{"FOO", "bar"},
	{"GET"},
	{"EXEC"},
	{"XADD", "s", "1-1", "f", "v"},
	{"XRANGE", "s", "-", "+"},
	{"PING"},
	{"ECHO", "hi"},
	{"TYPE", "h"},
	{"DEL", "k", "h", "z"},
}

// TestConfirmAgainstRedisCLI runs each command as `redis-cli -p PORT CMD`
// and as `locklab -p PORT CMD`, raw (stdout is not a terminal) and with
// --no-raw, and diffs the output byte for byte.
func TestConfirmAgainstRedisCLI(t *testing.T) {
	cli := redisCLI(t)
	port := redistest.Real(t)[len("127.0.0.1:"):]
	for _, mode := range [][]string{nil, {"--no-raw"}} {
		// The whole list through redis-cli, then through locklab: each
		// starts with FLUSHALL, so both see the same states.
		var want, got []string
		for _, cmd := range confirmCommands {
			out, err := exec.Command(cli, append(append([]string{"-p", port}, mode...), cmd...)...).Output()
			if err != nil {
				t.Fatalf("redis-cli %q: %v", cmd, err)
			}
			want = append(want, string(out))
		}
		for _, cmd := range confirmCommands {
			var out, errOut bytes.Buffer
			run(append(append([]string{"-p", port}, mode...), cmd...), strings.NewReader(""), &out, &errOut)
			got = append(got, out.String())
		}
		for i, cmd := range confirmCommands {
			if got[i] != want[i] {
				t.Errorf("%q %q:\nredis-cli: %q\nlocklab:   %q", mode, cmd, want[i], got[i])
			}
		}
	}
}

// TestConfirmPiped feeds the same lines on stdin to both programs.
func TestConfirmPiped(t *testing.T) {
	cli := redisCLI(t)
	port := redistest.Real(t)[len("127.0.0.1:"):]
	lines := "FLUSHALL\nSET k v\nGET k\nRPUSH l a b c\nLRANGE l 0 -1\nGET nope\nFOO\nINCR k\n" +
		"HSET h f v\nHGETALL h\nSET q \"two words\"\nGET q\nLRANGE empty 0 -1\nKEYS *\n"
	for _, mode := range [][]string{nil, {"--no-raw"}} {
		args := append([]string{"-p", port}, mode...)
		c := exec.Command(cli, args...)
		c.Stdin = strings.NewReader(lines)
		want, err := c.Output()
		if err != nil {
			t.Fatalf("redis-cli %q: %v", args, err)
		}
		var got, errOut bytes.Buffer
		run(args, strings.NewReader(lines), &got, &errOut)
		if got.String() != string(want) {
			t.Errorf("%q:\nredis-cli:\n%s\nlocklab:\n%s\nstderr: %s", args, want, got.String(), errOut.String())
		}
	}
}

func redisCLI(t *testing.T) string {
	t.Helper()
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		if redistest.InCI() {
			t.Fatal("redis-cli is not installed; CI must have it (apt-get install redis-tools)")
		}
		t.Skip("redis-cli is not installed")
	}
	return cli
}
