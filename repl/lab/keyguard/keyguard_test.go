package keyguard_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/keyguard"
)

// labKeys are a lock and a counter as a run of the lab leaves them.
func labKeys() []keyguard.Key {
	isToken := func(v string) bool { return v == "w1-i1" }
	return []keyguard.Key{
		{Name: "k", Ours: keyguard.Lock(isToken)},
		{Name: "k:count", Ours: keyguard.Counter},
	}
}

// TestCheck puts in the keys, on both kinds of server, what the lab leaves
// there (accepted) and what someone else might (refused, naming the key
// and its type), and checks that the check changed nothing it read.
func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		setup [][]string
		key   string // the key refused, "" for none
		what  string
	}{
		{"nothing there", nil, "", ""},
		{"a run's leftovers", [][]string{{"SET", "k", "w1-i1", "PX", "60000"}, {"SET", "k:count", "-2"}}, "", ""},
		{"a hash", [][]string{{"HSET", "k:count", "f", "v"}}, "k:count", "(a hash)"},
		{"a word in a counter", [][]string{{"SET", "k:count", "precious"}}, "k:count", "(a string)"},
		{"a counter with a TTL", [][]string{{"SET", "k:count", "3", "PX", "60000"}}, "k:count", "(a string)"},
		{"a lock with no TTL", [][]string{{"SET", "k", "w1-i1"}}, "k", "(a string)"},
		{"another token", [][]string{{"SET", "k", "someone", "PX", "60000"}}, "k", "(a string)"},
		{"a long string", [][]string{{"SET", "k:count", "1" + strings.Repeat("0", 100)}}, "k:count", "(a string)"},
		{"a sorted set", [][]string{{"ZADD", "k", "1", "m"}}, "k", "(a sorted set)"},
	}
	for kind, addr := range redistest.Servers(t) {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				conn := redistest.Dial(t, addr)
				conn.Do("FLUSHALL")
				for _, args := range c.setup {
					conn.Do(args...)
				}
				before := snapshot(conn, "k", "k:count")
				err := check(conn, labKeys())
				after := snapshot(conn, "k", "k:count")
				checkRefusal(t, err, c.key, c.what)
				if !bytes.Equal(before, after) {
					t.Errorf("the check changed the keys: %q, then %q", before, after)
				}
			})
		}
	}
}

// snapshot is what keys hold, byte for byte as the server answers it:
// each one's type, whether it has a TTL, and its content.
func snapshot(conn *redistest.Conn, keys ...string) []byte {
	var b []byte
	for _, k := range keys {
		kind, raw := conn.Do("TYPE", k)
		b = append(b, raw...)
		if ttl, _ := conn.Do("PTTL", k); ttl.Int > 0 {
			b = append(b, " ttl\n"...)
		}
		read := map[string][]string{"string": {"GET", k}, "hash": {"HGETALL", k}, "set": {"SMEMBERS", k}, "zset": {"ZRANGE", k, "0", "-1", "WITHSCORES"}}[kind.Str]
		if read != nil {
			_, raw := conn.Do(read...)
			b = append(b, raw...)
		}
	}
	return b
}

func check(conn *redistest.Conn, keys []keyguard.Key) error {
	send := func(_ context.Context, args ...string) (resp.Reply, error) {
		r, _ := conn.Do(args...)
		return r, nil
	}
	return keyguard.Guard{Word: "load", Flag: "--key", Send: send}.Check(context.Background(), keys)
}

func checkRefusal(t *testing.T, err error, key, what string) {
	t.Helper()
	var foreign *keyguard.ForeignError
	switch {
	case key == "" && err != nil:
		t.Fatalf("refused the lab's own keys: %v", err)
	case key == "":
	case !errors.As(err, &foreign):
		t.Fatalf("want %s refused, got %v", key, err)
	case foreign.Key != key || !strings.Contains(err.Error(), key+" holds data locklab did not write "+what):
		t.Errorf("want %s refused as %s, got: %v", key, what, err)
	case !strings.Contains(err.Error(), "choose another key with --key, e.g. --key lock:mine"):
		t.Errorf("the refusal must say how to choose another key: %v", err)
	}
}

// TestCheckManyKeys: more keys than one script takes are all read (the
// foreign one is the last of the second script's).
func TestCheckManyKeys(t *testing.T) {
	conn := redistest.Dial(t, redistest.Real(t))
	var keys []keyguard.Key
	for i := range 2500 {
		keys = append(keys, keyguard.Key{Name: "n:" + strconv.Itoa(i), Ours: keyguard.Counter})
	}
	last := keys[len(keys)-1].Name
	conn.Do("SADD", last, "m")
	checkRefusal(t, check(conn, keys), last, "(a set)")
}

// TestCheckError: a server that cannot run the check (here, a script
// error as a server refusing EVAL answers) is no permission to delete.
func TestCheckError(t *testing.T) {
	send := func(context.Context, ...string) (resp.Reply, error) {
		return resp.Reply{Kind: resp.Error, Str: "NOPERM this user has no permissions to run the 'eval' command"}, nil
	}
	err := keyguard.Guard{Word: "load", Flag: "--key", Send: send}.Check(context.Background(), labKeys())
	if err == nil || !strings.Contains(err.Error(), "could not read its keys") || !strings.Contains(err.Error(), "NOPERM") {
		t.Errorf("want the check's failure, got %v", err)
	}
}
