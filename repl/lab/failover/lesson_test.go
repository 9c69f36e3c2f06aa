package failover

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

const (
	lockKey = "lock:seat-1"
	runs    = 20
)

// releaseScript is the safe release: compare-and-delete.
const releaseScript = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"

// lessonRun is what one run of the lesson saw.
type lessonRun struct {
	waitSame, waitRaw, waitOther int64       // WAIT 1 200 on A's connection, first on a raw one, on another session
	onReplica                    resp.Reply  // GET lock:seat-1 on the replica before the crash
	before, after                Replication // just before the crash, after the promotion
	crash                        string      // how the primary was stopped
	elapsed                      time.Duration
}

// lesson is failure mode 2, end to end: A's lock is acknowledged by the
// primary, never reaches the replica, the primary crashes, the replica is
// promoted, and B takes the same lock. Any step that goes otherwise is an
// error.
func lesson(dir string) (lessonRun, error) {
	begin := time.Now()
	var run lessonRun
	ctx := context.Background()
	top, err := Up(ctx, dir)
	if err != nil {
		return run, err
	}
	defer top.Close()
	a := dial(top.Primary.Addr(), "A")
	defer a.Close()

	top.Proxy.Cut(Downstream)
	if r, err := do(a, "SET", lockKey, "tokA", "NX", "PX", "30000"); err != nil || !isOK(r) {
		return run, fmt.Errorf("A's SET NX on the primary: %v %v", r, err)
	}
	r, err := do(a, "WAIT", "1", "200")
	if err != nil || r.Kind != resp.Int {
		return run, fmt.Errorf("WAIT on A's connection: %v %v", r, err)
	}
	run.waitSame = r.Int
	// WAIT on other connections. A raw one whose first command is WAIT has
	// written nothing: every connected replica counts. A session's
	// connection (go-redis says HELLO first) has run a command after A's
	// SET; Redis 7.0 records the primary's offset after any command, so
	// its WAIT happens to wait for A's write too.
	if run.waitRaw, err = rawWait(top.Primary.Addr()); err != nil {
		return run, err
	}
	other := dial(top.Primary.Addr(), "")
	r, err = do(other, "WAIT", "1", "200")
	other.Close()
	if err != nil || r.Kind != resp.Int {
		return run, fmt.Errorf("WAIT on another session: %v %v", r, err)
	}
	run.waitOther = r.Int
	replica := dial(top.Replica.Addr(), "reader")
	defer replica.Close()
	if run.onReplica, err = do(replica, "GET", lockKey); err != nil {
		return run, err
	}
	// The proxy counts what it read; give bytes still in flight a moment.
	eventually(time.Second, func() bool {
		run.before = top.Status(ctx)
		return run.before.Behind() == run.before.DroppedDown
	})
	if err := top.CrashPrimary(ctx); err != nil {
		return run, err
	}
	run.crash = top.CrashMethod()
	if err := top.Promote(ctx); err != nil {
		return run, err
	}
	run.after = top.Status(ctx)

	b := dial(top.Replica.Addr(), "B")
	defer b.Close()
	if r, err := do(b, "EXISTS", lockKey); err != nil || !isInt(r, 0) {
		return run, fmt.Errorf("EXISTS %s on the promoted replica: %v %v (want 0)", lockKey, r, err)
	}
	if r, err := do(b, "SET", lockKey, "tokB", "NX", "PX", "30000"); err != nil || !isOK(r) {
		return run, fmt.Errorf("B's SET NX on the promoted replica: %v %v", r, err)
	}
	// A's safe release now runs against the new primary: it finds B's
	// token and deletes nothing. Compare-and-delete does not help here.
	if r, err := do(a, "EVAL", releaseScript, "1", lockKey, "tokA"); err == nil {
		return run, fmt.Errorf("A's connection to the crashed primary answered %v", r)
	}
	aNew := dial(top.Replica.Addr(), "A")
	defer aNew.Close()
	if r, err := do(aNew, "EVAL", releaseScript, "1", lockKey, "tokA"); err != nil || !isInt(r, 0) {
		return run, fmt.Errorf("A's compare-and-delete on the new primary: %v %v (want 0)", r, err)
	}
	run.elapsed = time.Since(begin)
	return run, nil
}

// TestLessonTwoHolders runs the lesson 20 times at once, each run on its
// own topology, and wants two holders of one lock in every run, with the
// offsets proving why: the replica is behind the primary by exactly the
// bytes the proxy dropped, and its offset does not move across the
// failover.
func TestLessonTwoHolders(t *testing.T) {
	redistest.NeedProgram(t, "redis-server")
	version070 := strings.HasPrefix(redisVersion(t), "7.0.")
	results := make([]lessonRun, runs)
	errs := inParallel(t, runs, func(i int, dir string) error {
		var err error
		results[i], err = lesson(dir)
		return err
	})
	holders := 0
	for i, err := range errs {
		res := results[i]
		t.Run(fmt.Sprintf("run%02d", i+1), func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			if res.waitSame != 0 {
				t.Errorf("WAIT 1 200 on A's connection = %d, want 0", res.waitSame)
			}
			// WAIT counts the replicas that acknowledged the calling
			// connection's offset; a connection that ran nothing has
			// offset 0, so every connected replica counts: it says nothing
			// of A's SET.
			if res.waitRaw != 1 {
				t.Errorf("WAIT 1 200 as a fresh connection's first command = %d, want 1", res.waitRaw)
			}
			if version070 && res.waitOther != 0 {
				t.Errorf("WAIT 1 200 on another session (Redis 7.0) = %d, want 0", res.waitOther)
			}
			if res.onReplica.Kind != resp.Nil {
				t.Errorf("GET %s on the replica before the crash = %v, want nil", lockKey, res.onReplica)
			}
			b, a := res.before, res.after
			if b.PrimaryOffset <= b.ReplicaOffset || b.Behind() != b.DroppedDown {
				t.Errorf("before the crash: primary offset %d, replica %d, dropped %d: want the replica behind by the bytes dropped",
					b.PrimaryOffset, b.ReplicaOffset, b.DroppedDown)
			}
			if b.LinkStatus != "up" {
				t.Errorf("master_link_status during the cut = %q, want up", b.LinkStatus)
			}
			if a.ReplicaRole != "master" || a.ReplicaOffset != b.ReplicaOffset || a.PrimaryRole != "down" {
				t.Errorf("after the promotion:\n%s\nwant the replica master at offset %d", a, b.ReplicaOffset)
			}
			if res.crash != "SHUTDOWN NOSAVE NOW" {
				t.Errorf("the primary was stopped by %s", res.crash)
			}
			if !t.Failed() {
				holders++
			}
		})
	}
	t.Logf("two holders in %d/%d runs", holders, runs)
	if len(results) > 0 {
		t.Logf("WAIT 1 200 in run 1: on A's connection %d; first command of a raw connection %d; on another session %d",
			results[0].waitSame, results[0].waitRaw, results[0].waitOther)
	}
	if len(results) > 0 && errs[0] == nil {
		t.Logf("run 1 (%v): before the crash:\n%s\nafter the promotion:\n%s", results[0].elapsed.Round(time.Millisecond), results[0].before, results[0].after)
	}
}
