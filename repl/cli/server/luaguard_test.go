package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/cli/server"
)

// TestScriptGuard: on the embedded Redis, a script that names a global
// Redis does not give (dofile, loadfile, require, _G ...) is refused
// before it runs, so no host file is read; a script that returns a Lua
// function is an error reply, not a panic that ends locklab; and the
// server goes on serving, an ordinary script included, on a new
// connection.
func TestScriptGuard(t *testing.T) {
	e, c := embeddedClient(t)
	ctx := context.Background()
	for _, body := range []string{"return dofile('/etc/passwd')", "return loadfile('/etc/passwd')", "return require('x')", "return _G['dof'..'ile']", "local f = loadstring; return 1"} {
		err := c.Do(ctx, "EVAL", body, 0).Err()
		if err == nil || !strings.Contains(err.Error(), "nonexistent global variable") {
			t.Errorf("EVAL %q: %v, want it refused", body, err)
		}
		if err := c.Do(ctx, "SCRIPT", "LOAD", body).Err(); err == nil {
			t.Errorf("SCRIPT LOAD %q was taken", body)
		}
	}
	if err := c.Do(ctx, "EVAL", "return function() end", 0).Err(); err == nil || !strings.Contains(err.Error(), "cannot send") {
		t.Errorf("EVAL returning a function: %v, want an error reply", err)
	}
	// That connection is closed after its error (a reply cut half-way
	// would put the next ones out of step); a new one is served.
	fresh := client(t, e.Addr())
	got, err := fresh.Do(ctx, "EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", 1, "k", "v").Result()
	if err != nil || got != "OK" {
		t.Errorf("an ordinary script after them: %v, %v", got, err)
	}
}

// TestScriptGuardReadsCode: a name in a string or a comment reaches
// nothing and is not refused; the same name in code is, however the
// strings and comments around it are written.
func TestScriptGuardReadsCode(t *testing.T) {
	_, c := embeddedClient(t)
	ctx := context.Background()
	for _, body := range []string{
		"-- load the counter, then print it\nreturn redis.call('GET', 'lock:load')",
		"--[[ dofile(x) ]] return \"_G\" .. 'require'",
		"return [==[ loadfile ]] still ]==]",
		"return 'it\\'s load'",
	} {
		if err := c.Do(ctx, "EVAL", body, 0).Err(); err != nil && err != redis.Nil {
			t.Errorf("EVAL %q: %v, want it run", body, err)
		}
	}
	for _, body := range []string{
		"return 'x' .. dofile('/etc/passwd')",
		"--[[ c ]] local f = load; return 1",
		"return [[s]], _G",
		"local s = \"a\\\"\" return loadstring(s)",
	} {
		for _, pass := range []string{"read", "remembered"} { // the guard reads a body once
			if err := c.Do(ctx, "EVAL", body, 0).Err(); err == nil || !strings.Contains(err.Error(), "nonexistent global") {
				t.Errorf("EVAL %q (%s): %v, want it refused", body, pass, err)
			}
		}
	}
}

// embeddedClient is an embedded Redis and a client of it that never
// retries (a retry would hide a closed connection).
func embeddedClient(t *testing.T) (*server.Embedded, *redis.Client) {
	t.Helper()
	e, err := server.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e, client(t, e.Addr())
}

func client(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}
