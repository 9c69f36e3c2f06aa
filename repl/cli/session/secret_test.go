package session

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// TestCarriesSecret: the commands that carry a password, however the
// words are cased, and their neighbours that do not.
func TestCarriesSecret(t *testing.T) {
	secret := [][]string{
		{"AUTH", "pw"},
		{"auth", "user", "pw"},
		{"AUTH", "a", "b", "c"}, // refused by the server, but sent
		{"HELLO", "3", "AUTH", "default", "pw"},
		{"hello", "2", "auth", "u", "pw", "SETNAME", "x"},
		{"CONFIG", "SET", "requirepass", "pw"},
		{"config", "set", "MasterAuth", "pw"},
		{"CONFIG", "SET", "tls-key-file-pass", "pw"},
		{"CONFIG", "SET", "tls-client-key-file-pass", "pw"},
		{"CONFIG", "SET", "maxmemory", "1mb", "masteruser", "repl"},
		{"SENTINEL", "SET", "mymaster", "auth-pass", "pw"},
		{"SENTINEL", "CONFIG", "SET", "sentinel-pass", "pw"},
		{"ACL", "SETUSER", "u", "on", ">pw"},
		{"acl", "setuser", "u", "#5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"},
		{"ACL", "SETUSER", "u", "<pw"},
		{"MIGRATE", "h", "6379", "k", "0", "5000", "AUTH", "pw"},
		{"MIGRATE", "h", "6379", "", "0", "5000", "REPLACE", "AUTH2", "u", "pw", "KEYS", "a"},
	}
	for _, args := range secret {
		if !CarriesSecret(args) {
			t.Errorf("CarriesSecret(%q) = false, want true", args)
		}
	}
	plain := [][]string{
		{},
		{"AUTH"}, // nothing after it to hide
		{"SET", "auth", "pw"},
		{"GET", "requirepass"},
		{"CONFIG", "GET", "requirepass"},
		{"CONFIG", "SET", "maxmemory", "1mb"},
		{"ACL", "SETUSER", "u", "on", "~*", "+@all", "nopass"},
		{"ACL", "DELUSER", ">u"},
		{"HELLO", "3"},
		{"HELLO", "3", "SETNAME", "auth"},
		{"MIGRATE", "h", "6379", "k", "0", "5000"},
		{"SENTINEL", "SET", "mymaster", "quorum", "2"},
		{"EVAL", "return 1", "0", "AUTH", "pw"},
	}
	for _, args := range plain {
		if CarriesSecret(args) {
			t.Errorf("CarriesSecret(%q) = true, want false", args)
		}
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"AUTH", "hunter2"}, []string{"AUTH", hidden}},
		{[]string{"auth", "bob", "hunter2"}, []string{"auth", hidden, hidden}},
		{[]string{"HELLO", "3", "AUTH", "bob", "hunter2", "SETNAME", "x"}, []string{"HELLO", "3", "AUTH", "bob", hidden, "SETNAME", "x"}},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH", "hunter2"}, []string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH", hidden}},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH2", "bob", "hunter2"}, []string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH2", "bob", hidden}},
		{[]string{"CONFIG", "SET", "requirepass", "hunter2"}, []string{"CONFIG", "SET", "requirepass", hidden}},
		{[]string{"CONFIG", "SET", "tls-key-file-pass", "hunter2", "maxmemory", "1mb"}, []string{"CONFIG", "SET", "tls-key-file-pass", hidden, "maxmemory", "1mb"}},
		{[]string{"ACL", "SETUSER", "bob", "on", ">hunter2", "~*"}, []string{"ACL", "SETUSER", "bob", "on", ">" + hidden, "~*"}},
		{[]string{"SET", "k", "hunter2"}, []string{"SET", "k", "hunter2"}}, // data, not a secret
		{[]string{}, []string{}},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRedactText: a reply that quotes a secret the command carried shows
// it hidden; one that quotes other words keeps them.
func TestRedactText(t *testing.T) {
	args := []string{"CONFIG", "SET", "requirepass", "pw-1"}
	reply := "ERR unknown command `CONFIG`, with args beginning with: `SET`, `requirepass`, `pw-1`, "
	want := "ERR unknown command `CONFIG`, with args beginning with: `SET`, `requirepass`, `(hidden)`, "
	if got := RedactText(args, reply); got != want {
		t.Errorf("RedactText(%q, %q) = %q, want %q", args, reply, got, want)
	}
	if got := RedactText([]string{"GET", "pw-1"}, "pw-1"); got != "pw-1" {
		t.Errorf("RedactText of a GET = %q, want the reply as it is", got)
	}
}

// TestRedactHidesWhatCarriesSecret: a command that carries a secret shows
// none of its words that differ from the original but as hidden: the two
// answer from the one rule.
func TestRedactHidesWhatCarriesSecret(t *testing.T) {
	args := []string{"HELLO", "3", "AUTH", "u", "pw-1", "SETNAME", "n"}
	if !CarriesSecret(args) || strings.Contains(strings.Join(Redact(args), " "), "pw-1") {
		t.Errorf("Redact(%q) = %q", args, Redact(args))
	}
}

// TestWatchSecrets: a command with a secret sent on a real connection
// under the watch marks it, one sent after another (or outside the watch)
// does not unmark it or mark another watch.
func TestWatchSecrets(t *testing.T) {
	c := NewConn(Target{Network: "tcp", Addr: redistest.Embedded(t)}, "")
	defer c.Close()
	ctx, w := WatchSecrets(context.Background())
	other, ow := WatchSecrets(context.Background())
	if _, err := c.Do(ctx, []string{"SET", "k", "v"}); err != nil || w.Sent() {
		t.Fatalf("after SET: sent %v, err %v; want false, nil", w.Sent(), err)
	}
	if _, err := c.Do(ctx, []string{"AUTH", "pw"}); err != nil || !w.Sent() {
		t.Fatalf("after AUTH pw: sent %v, err %v; want true, nil", w.Sent(), err)
	}
	c.DoBatch(other, [][]string{{"PING"}, {"GET", "k"}})
	if ow.Sent() {
		t.Errorf("a batch with no secret marked its watch")
	}
	c.DoBatch(other, [][]string{{"PING"}, {"config", "set", "requirepass", "pw"}})
	if !ow.Sent() {
		t.Errorf("CONFIG SET requirepass in a batch did not mark its watch")
	}
	c.Do(context.Background(), []string{"AUTH", "pw"}) // no watch: nothing to mark, nothing breaks
}
