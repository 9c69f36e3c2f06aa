package resp_test

import (
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/resp"
)

func TestRawOnTTY(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args string
		want bool
	}{
		{"INFO", true},
		{"info server", true},
		{"LOLWUT VERSION 5", true},
		{"CLIENT LIST", true},
		{"client list id 7", true},
		{"CLIENT INFO", true},
		{"CLIENT GETNAME", false},
		{"CLUSTER NODES", true},
		{"CLUSTER INFO", true},
		{"CLUSTER INFO extra", false},
		{"CLUSTER SLOTS", false},
		{"MEMORY DOCTOR", true},
		{"MEMORY MALLOC-STATS", true},
		{"MEMORY USAGE k", false},
		{"LATENCY DOCTOR", true},
		{"LATENCY DOCTOR extra", false},
		{"LATENCY GRAPH command", true},
		{"LATENCY GRAPH", false},
		{"LATENCY HISTORY command", false},
		{"DEBUG HTSTATS 0", true},
		{"DEBUG HTSTATS-KEY k", true},
		{"DEBUG CLIENT-EVICTION", true},
		{"DEBUG PROTOCOL map", false},
		{"PROXY INFO", true},
		{"GET info", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := resp.RawOnTTY(strings.Fields(tt.args)); got != tt.want {
			t.Errorf("RawOnTTY(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	info := resp.Reply{Kind: resp.Bulk, Str: "# Server\r\nredis_version:7.0.15\r\n"}
	errReply := resp.Reply{Kind: resp.Error, Str: "ERR syntax error"}
	tests := []struct {
		args string
		r    resp.Reply
		tty  bool
		want string
	}{
		{"INFO", info, true, info.Str},
		{"INFO", info, false, info.Str},
		{"INFO nosuchsection", resp.Reply{Kind: resp.Bulk}, true, ""},
		{"CLIENT LIST badarg", errReply, true, "ERR syntax error\n"},
		{"CLIENT LIST badarg", errReply, false, "ERR syntax error\n"},
		{"GET k", errReply, true, "(error) ERR syntax error\n"},
		{"GET k", errReply, false, "ERR syntax error\n\n"},
		{"GET k", resp.Reply{Kind: resp.Bulk, Str: "v"}, true, "\"v\"\n"},
		{"GET k", resp.Reply{Kind: resp.Bulk, Str: "v"}, false, "v\n"},
		// A command sent with CLIENT REPLY OFF got no reply: nothing prints,
		// not even the raw mode's delimiter.
		{"SET k v", resp.Reply{Kind: resp.None}, true, ""},
		{"SET k v", resp.Reply{Kind: resp.None}, false, ""},
		{"CLIENT LIST", resp.Reply{Kind: resp.None}, true, ""},
		// A message to a RESP3 subscriber is a push, printed as redis-cli
		// prints the RESP2 array (its ")" after each index).
		{"SUBSCRIBE ch", message(resp.Push), true, "1) \"message\"\n2) \"ch\"\n3) \"hi there\"\n"},
		{"SUBSCRIBE ch", message(resp.Array), true, "1) \"message\"\n2) \"ch\"\n3) \"hi there\"\n"},
		{"SUBSCRIBE ch", message(resp.Push), false, "message\nch\nhi there\n"},
	}
	for _, tt := range tests {
		if got := resp.Format(strings.Fields(tt.args), tt.r, tt.tty); got != tt.want {
			t.Errorf("Format(%q, %v, tty=%v) = %q, want %q", tt.args, tt.r, tt.tty, got, tt.want)
		}
	}
}

// message is what a subscriber to ch receives after PUBLISH ch "hi there".
func message(kind resp.Kind) resp.Reply {
	return resp.Reply{Kind: kind, Elems: []resp.Reply{{Kind: resp.Bulk, Str: "message"}, {Kind: resp.Bulk, Str: "ch"}, {Kind: resp.Bulk, Str: "hi there"}}}
}

// TestFormatAnyReply checks replies Parse never returns, which a caller
// may still build: formatting them must not panic, and must end a line.
func TestFormatAnyReply(t *testing.T) {
	t.Parallel()
	k := resp.Reply{Kind: resp.Status, Str: "k"}
	tests := []struct {
		r        resp.Reply
		tty, raw string
	}{
		{resp.Reply{}, "(unknown reply kind 0)\n", "\n"},
		{resp.Reply{Kind: 200}, "(unknown reply kind 200)\n", "\n"},
		{resp.Reply{Kind: resp.Map, Elems: []resp.Reply{k}}, "1# k => (nil)\n", "k \n"},
		{resp.Reply{Kind: resp.Array, Elems: []resp.Reply{{Kind: resp.Map, Elems: []resp.Reply{k, k, k}}}},
			"1) 1# k => k\n   2# k => (nil)\n", "k k\nk \n"},
	}
	for _, tt := range tests {
		if got := resp.FormatTTY(tt.r); got != tt.tty {
			t.Errorf("FormatTTY(%v) = %q, want %q", tt.r, got, tt.tty)
		}
		if got := resp.FormatRaw(tt.r); got != tt.raw {
			t.Errorf("FormatRaw(%v) = %q, want %q", tt.r, got, tt.raw)
		}
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain text", `"plain text"`},
		{"\"\\\n\r\t\a\b", `"\"\\\n\r\t\a\b"`},
		{"\x00\x1f\x7f\x80\xff", `"\x00\x1f\x7f\x80\xff"`},
		{"你", `"\xe4\xbd\xa0"`},
		{"~ '", `"~ '"`},
	}
	for _, tt := range tests {
		if got := resp.Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
