package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/cli/server"
)

// TestBusyScript: while one client's script runs, another client's
// command waits, as on redis-server; once the script has run the BUSY
// threshold, the command is answered BUSY with what to do, where it used
// to wait for as long as the script ran (for good, for a script that
// never ends). The commands the script itself calls (redis.call) do not
// wait on it, and once it ends the server serves again.
func TestBusyScript(t *testing.T) {
	server.SetBusyAfter(t, 200*time.Millisecond)
	e, other := embeddedClient(t)
	ctx := context.Background()
	now, err := other.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	runaway, ended := client(t, e.Addr()), make(chan error, 1)
	go func() { // a script that runs for 1.5 s of the server's time, calling TIME all along
		body := "repeat local t = redis.call('TIME') until t[1] * 1000000 + t[2] >= tonumber(ARGV[1]) return 'ended'"
		ended <- runaway.Eval(ctx, body, nil, now.Add(1500*time.Millisecond).UnixMicro()).Err()
	}()
	busy := awaitBusy(t, other, ended)
	if !strings.HasPrefix(busy.Error(), "BUSY ") || !strings.Contains(busy.Error(), "start locklab again") {
		t.Errorf("a command while the script ran: %v, want BUSY and what to do", busy)
	}
	if err := <-ended; err != nil {
		t.Errorf("the script: %v, want it to end (its own redis.call never waits on it)", err)
	}
	if err := other.Ping(ctx).Err(); err != nil {
		t.Errorf("PING once the script ended: %v", err)
	}
}

// awaitBusy sends PING on c until the server answers it with an error,
// which it returns; it fails the test if the script ends first.
func awaitBusy(t *testing.T, c *redis.Client, ended chan error) error {
	t.Helper()
	for {
		select {
		case err := <-ended:
			t.Fatalf("the script ended (%v) before a command was answered BUSY", err)
		default:
		}
		if err := c.Ping(context.Background()).Err(); err != nil {
			return err
		}
	}
}
