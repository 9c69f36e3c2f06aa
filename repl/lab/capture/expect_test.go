package capture_test

import (
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/capture"
)

// TestExpect is the rule for each kind of reply (the package doc).
func TestExpect(t *testing.T) {
	sent := func(v string) bool { return v == "tok" || v == "a b" }
	bulk := func(s string) resp.Reply { return resp.Reply{Kind: resp.Bulk, Str: s} }
	arr := func(rs ...resp.Reply) resp.Reply { return resp.Reply{Kind: resp.Array, Elems: rs} }
	for _, c := range []struct {
		args []string
		r    resp.Reply
		want string
	}{
		{[]string{"SET", "k", "tok", "NX"}, resp.Reply{Kind: resp.Status, Str: "OK"}, "expect reply OK"},
		{[]string{"SET", "k", "tok", "NX"}, resp.Reply{Kind: resp.Nil}, "expect reply ''"},
		{[]string{"INCR", "n"}, resp.Reply{Kind: resp.Int, Int: 7}, "expect reply 7"},
		{[]string{"PTTL", "k"}, resp.Reply{Kind: resp.Int, Int: 4321}, "expect reply -gt 0"},
		{[]string{"TTL", "k"}, resp.Reply{Kind: resp.Int, Int: -2}, "expect reply -2"},
		{[]string{"GET", "k"}, bulk("tok"), "expect reply tok"},
		{[]string{"GET", "k"}, bulk("a b"), "expect reply 'a b'"},
		{[]string{"GET", "k"}, bulk("made-by-the-server"), "expect reply != ''"},
		{[]string{"LRANGE", "l", "0", "-1"}, arr(bulk("a"), bulk("b")), "expect reply 'a\nb'"},
		{[]string{"SMEMBERS", "s"}, arr(bulk("a"), bulk("b")), "# SMEMBERS's reply comes in the server's own order: not expected"},
		{[]string{"HGETALL", "h"}, arr(bulk("f"), bulk("v")), "# HGETALL's reply comes in the server's own order: not expected"},
		{[]string{"INFO"}, bulk("# Server\nredis_version:7.0.15"), "# INFO's reply differs between servers and runs: not expected"},
		{[]string{"CLIENT", "ID"}, resp.Reply{Kind: resp.Int, Int: 5}, "# CLIENT's reply differs between servers and runs: not expected"},
		{[]string{"PING"}, resp.Reply{Kind: resp.Status, Str: "PONG"}, "expect reply PONG"},
		{[]string{"GET"}, resp.Reply{Kind: resp.Error, Str: "ERR wrong number of arguments for 'get' command"},
			"# an error (its text differs between servers): ERR wrong number of arguments for 'get' command"},
	} {
		if got := capture.Expect(c.args, c.r, sent); got != c.want {
			t.Errorf("Expect(%q, %v) = %q, want %q", c.args, c.r, got, c.want)
		}
	}
}
