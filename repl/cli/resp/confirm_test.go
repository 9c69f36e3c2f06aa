package resp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
)

// confirmCase is a command whose printed reply must match redis-cli's.
// Each run (ours, redis-cli on a terminal, redis-cli on a pipe) starts
// from an empty database plus setup, so the order of the table does not
// matter and every run sees the same state.
type confirmCase struct {
	setup [][]string
	args  []string
	only  int // 2 or 3 to run in one protocol only; 0 for both
}

var confirmCases = []confirmCase{
	{args: []string{"PING"}},
	{args: []string{"PING", "hello world"}},
	{args: []string{"SET", "lock:room42", "tok-a", "NX", "PX", "30000"}},
	{setup: [][]string{{"SET", "lock:room42", "tok-b"}}, args: []string{"SET", "lock:room42", "tok-a", "NX", "PX", "30000"}},
	{setup: kv, args: []string{"GET", "k"}},
	{args: []string{"GET", "missing"}},
	{setup: escapes, args: []string{"GET", "k"}},
	{args: []string{"ECHO", `tab	quote" backslash\ bell` + "\a\b\r\n\x7f" + "é 你好"}},
	{args: []string{"ECHO", ""}},
	{setup: kv, args: []string{"TYPE", "k"}},
	{setup: kv, args: []string{"OBJECT", "ENCODING", "k"}},
	{setup: [][]string{{"SET", "n", "41"}}, args: []string{"INCR", "n"}},
	{setup: [][]string{{"SET", "n", "5"}}, args: []string{"DECRBY", "n", "9223372036854775807"}},
	{setup: kv, args: []string{"INCR", "k"}},
	{setup: kv, args: []string{"DEL", "k", "missing"}},
	{setup: kv, args: []string{"MGET", "k", "missing", "k"}},
	{setup: list12, args: []string{"LRANGE", "l", "0", "-1"}},
	{setup: list12, args: []string{"LRANGE", "l", "0", "2"}},
	{args: []string{"LRANGE", "missing", "0", "-1"}},
	{args: []string{"BLPOP", "missing", "0.01"}},
	{setup: hash, args: []string{"HGETALL", "h"}},
	{args: []string{"HGETALL", "missing"}},
	{setup: intset, args: []string{"SMEMBERS", "s"}},
	{args: []string{"SMEMBERS", "missing"}},
	{setup: zset12, args: []string{"ZRANGE", "z", "0", "-1", "WITHSCORES"}},
	{setup: zset12, args: []string{"ZSCORE", "z", "b"}},
	{setup: stream, args: []string{"XRANGE", "s", "-", "+"}},
	{setup: stream, args: []string{"XINFO", "STREAM", "s"}},
	{setup: geo, args: []string{"GEOPOS", "g", "Palermo", "Atlantis"}},
	{args: []string{"SCAN", "0", "MATCH", "nomatch*"}},
	{args: []string{"EVAL", luaNested, "0"}},
	{args: []string{"EVAL", luaDeep, "0"}},
	{args: []string{"EVAL", luaHundred, "0"}},
	{args: []string{"EVAL", luaMapRESP, "0"}},
	{args: []string{"EVAL", `return {err = 'my "quoted" error'}`, "0"}},
	{setup: kv, args: []string{"EVAL", "return redis.call('get', KEYS[1])", "1", "k"}},
	{args: []string{"FOO", "bar", "baz qux"}},
	{args: []string{"GET"}},
	{args: []string{"EXEC"}},
	{args: []string{"CONFIG", "GET", "*"}},
	{args: []string{"CONFIG", "GET", "maxmemory"}},
	{args: []string{"COMMAND", "INFO", "GET", "SET"}},
	{args: []string{"DEBUG", "PROTOCOL", "string"}},
	{args: []string{"DEBUG", "PROTOCOL", "integer"}},
	{args: []string{"DEBUG", "PROTOCOL", "double"}},
	{args: []string{"DEBUG", "PROTOCOL", "null"}},
	{args: []string{"DEBUG", "PROTOCOL", "array"}},
	{args: []string{"DEBUG", "PROTOCOL", "set"}},
	{args: []string{"DEBUG", "PROTOCOL", "map"}},
	{args: []string{"DEBUG", "PROTOCOL", "true"}},
	{args: []string{"DEBUG", "PROTOCOL", "false"}},
	{args: []string{"DEBUG", "PROTOCOL", "verbatim"}},
	// redis-cli 7.0 cannot print a RESP3 attribute or big number (see
	// testdata/HANDWRITTEN.md); in RESP2 both come as bulk strings.
	{args: []string{"DEBUG", "PROTOCOL", "attrib"}, only: 2},
	{args: []string{"DEBUG", "PROTOCOL", "bignum"}, only: 2},
	// Printed raw even on a terminal, with no newline added (RawOnTTY).
	{args: []string{"LATENCY", "DOCTOR"}},
	{args: []string{"latency", "graph", "command"}},
	{args: []string{"CLIENT", "LIST", "badarg"}},
	{args: []string{"INFO", "nosuchsection"}},
	{args: []string{"CLUSTER", "INFO"}},
	{args: []string{"DEBUG", "HTSTATS-KEY", "missing"}},
	// Not raw: the argument count differs from RawOnTTY's.
	{args: []string{"LATENCY", "GRAPH"}},
	{args: []string{"CLUSTER", "INFO", "extra"}},
}

// TestConfirmAgainstRedisCLI sends each command of confirmCases to a real
// redis-server over a raw connection, in RESP2 and in RESP3, prints the
// reply with Format, and checks the result byte for byte against what
// the real redis-cli prints for the same command: with --no-raw (the
// terminal format) and with its stdout a pipe (raw), and -3 for RESP3.
func TestConfirmAgainstRedisCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server and runs redis-cli 250 times")
	}
	addr := realRedis(t)
	ctrl := dial(t, addr, 2)
	for _, proto := range []int{2, 3} {
		conn := dial(t, addr, proto)
		for _, c := range confirmCases {
			if c.only != 0 && c.only != proto {
				continue
			}
			name := fmt.Sprintf("resp%d/%.40s", proto, strings.Join(c.args, "_"))
			t.Run(name, func(t *testing.T) {
				reset(t, ctrl, c.setup)
				r, raw := conn.Do(c.args...)
				for _, tty := range []bool{true, false} {
					reset(t, ctrl, c.setup)
					want := redisCLI(t, addr, cliOpts{proto: proto, tty: tty}, c.args)
					if got := resp.Format(c.args, r, tty); got != want {
						t.Errorf("tty=%v, reply %q\ngot:\n%s\nredis-cli:\n%s\ngot %q\nredis-cli %q",
							tty, raw, got, want, got, want)
					}
				}
			})
		}
	}
}
