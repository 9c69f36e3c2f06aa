package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// TestTimeStandsStillInATransaction: within one EXEC, a key set to
// expire in 5 ms is still there after a script that runs longer than
// that, on the embedded Redis as on redis-server 7 (the outside
// observer), where a transaction's keys keep the time it began at; TIME
// in a script still moves on both. (The embedded Redis read the wall
// clock at every access: the key was gone, and the probe's read just
// after a command, in the same transaction, once found a lock cut to
// 10 ms released.)
func TestTimeStandsStillInATransaction(t *testing.T) {
	_, embedded := embeddedClient(t)
	servers := map[string]*redis.Client{"embedded": embedded, "redis-server": client(t, redistest.Real(t))}
	ctx := context.Background()
	const slow = "local a = redis.call('TIME') for i = 1, 3000000 do end local b = redis.call('TIME') return (b[1] - a[1]) * 1000000 + (b[2] - a[2])"
	for name, c := range servers {
		var exists *redis.IntCmd
		var moved *redis.Cmd
		_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "k", "v", 5*time.Millisecond)
			moved = p.Eval(ctx, slow, nil)
			exists = p.Exists(ctx, "k")
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if exists.Val() != 1 {
			t.Errorf("%s: the key set to expire in 5 ms was gone later in the same transaction", name)
		}
		if us, err := moved.Int64(); err != nil || us <= 0 {
			t.Errorf("%s: TIME in the script moved %d µs (%v), want it to move", name, us, err)
		}
	}
}
