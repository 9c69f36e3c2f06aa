package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/redistest"
	"github.com/locklab/locklab/repl/resp"
)

// TestCancelCutsBlockedCommand: Ctrl-C (a cancelled ctx) cuts a command
// that would block for ever, alone or in a pipeline, and the next command
// redials with the connection's database and name kept.
func TestCancelCutsBlockedCommand(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			c := NewConn(Target{Network: "tcp", Addr: addr}, "cut-me")
			defer c.Close()
			bg := context.Background()
			if r, err := c.Do(bg, []string{"SELECT", "3"}); err != nil || r.Str != "OK" {
				t.Fatalf("SELECT 3: %v, %v", r, err)
			}
			blocked := map[string]func(ctx context.Context) error{
				"Do": func(ctx context.Context) error {
					_, err := c.Do(ctx, []string{"BLPOP", "nothing:here", "0"})
					return err
				},
				"DoBatch": func(ctx context.Context) error {
					_, err := c.DoBatch(ctx, [][]string{{"PING"}, {"BLPOP", "nothing:here", "0"}})
					return err
				},
			}
			for name, send := range blocked {
				ctx, cancel := context.WithCancel(bg)
				time.AfterFunc(50*time.Millisecond, cancel)
				if err := send(ctx); !errors.Is(err, context.Canceled) {
					t.Errorf("%s BLPOP 0, cancelled: %v; want context.Canceled", name, err)
				}
				r, err := c.DoBatch(bg, [][]string{{"SET", "db3:key", "v"}, {"CLIENT", "GETNAME"}})
				if err != nil || len(r) != 2 || r[0].Str != "OK" || r[1].Str != "cut-me" {
					t.Fatalf("after the cut (%s): %v, %v; want OK and the name", name, r, err)
				}
			}
			other := NewConn(Target{Network: "tcp", Addr: addr, DB: 3}, "")
			defer other.Close()
			if r, err := other.Do(bg, []string{"GET", "db3:key"}); err != nil || r.Kind != resp.Bulk || r.Str != "v" {
				t.Errorf("GET db3:key on database 3: %v, %v; the redial lost SELECT 3", r, err)
			}
		})
	}
}
