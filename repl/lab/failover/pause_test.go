package failover

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

const pauseRuns = 10

// pauseRun is what one run of the lesson with --cut pause saw.
type pauseRun struct {
	before, after Replication
	waitSame      int64
	got, bSet     resp.Reply // GET lock:seat-1, then B's SET NX, on the promoted replica
}

// pauseLesson is the lesson as it runs against servers locklab does not
// own: only addresses, only Redis commands. The proxy in the link is not
// cut; the replica's CLIENT PAUSE WRITE holds the SET, and the crash makes
// it discard it.
func pauseLesson(dir string, unpauseFirst bool) (pauseRun, error) {
	var run pauseRun
	ctx := context.Background()
	top, err := Up(ctx, dir)
	if err != nil {
		return run, err
	}
	defer top.Close()
	primary, replica := top.Primary.Addr(), top.Replica.Addr()
	if err := PauseCut(ctx, replica); err != nil {
		return run, err
	}
	a := dial(primary, "A")
	defer a.Close()
	if r, err := do(a, "SET", lockKey, "tokA", "NX", "PX", "30000"); err != nil || !isOK(r) {
		return run, fmt.Errorf("A's SET NX on the primary: %v %v", r, err)
	}
	r, err := do(a, "WAIT", "1", "200")
	if err != nil || r.Kind != resp.Int {
		return run, fmt.Errorf("WAIT: %v %v", r, err)
	}
	run.waitSame = r.Int
	reader := dial(replica, "reader")
	defer reader.Close()
	if r, err := do(reader, "GET", lockKey); err != nil || r.Kind != resp.Nil {
		return run, fmt.Errorf("GET on the paused replica (reads still work): %v %v, want nil", r, err)
	}
	run.before = Observe(ctx, primary, replica)
	if unpauseFirst {
		if err := PauseHeal(ctx, replica); err != nil {
			return run, err
		}
		eventually(2*time.Second, func() bool { r, _ := do(reader, "GET", lockKey); return r.Kind == resp.Bulk })
	}
	if err := ShutdownNow(ctx, primary); err != nil {
		return run, err
	}
	if err := WaitLinkDown(ctx, replica); err != nil {
		return run, err
	}
	if !unpauseFirst {
		if err := PauseHeal(ctx, replica); err != nil {
			return run, err
		}
	}
	if err := PromoteReplica(ctx, replica); err != nil {
		return run, err
	}
	run.after = Observe(ctx, primary, replica)
	b := dial(replica, "B")
	defer b.Close()
	if run.got, err = do(b, "GET", lockKey); err != nil {
		return run, err
	}
	run.bSet, err = do(b, "SET", lockKey, "tokB", "NX", "PX", "30000")
	return run, err
}

// TestPauseCutLosesTheLock: 10 runs at once, each must lose the lock, with
// the offsets as proof: the primary is ahead, the replica's offset does
// not move when the held SET is discarded.
func TestPauseCutLosesTheLock(t *testing.T) {
	t.Parallel()
	redistest.NeedProgram(t, "redis-server")
	results := make([]pauseRun, pauseRuns)
	errs := inParallel(t, pauseRuns, func(i int, dir string) error {
		var err error
		results[i], err = pauseLesson(dir, false)
		return err
	})
	lost := 0
	for i, err := range errs {
		res := results[i]
		t.Run(fmt.Sprintf("run%02d", i+1), func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			b, a := res.before, res.after
			if res.got.Kind != resp.Nil || !isOK(res.bSet) {
				t.Errorf("on the promoted replica: GET %s = %v, B's SET NX = %v; want nil, OK", lockKey, res.got, res.bSet)
			}
			if res.waitSame != 0 {
				t.Errorf("WAIT on A's connection = %d, want 0", res.waitSame)
			}
			if b.Behind() <= 0 || b.LinkStatus != "up" {
				t.Errorf("while paused:\n%s\nwant the replica behind with its link up", b)
			}
			if a.ReplicaRole != "master" || a.ReplicaOffset != b.ReplicaOffset || a.PrimaryUp {
				t.Errorf("after the promotion:\n%s\nwant the replica master at offset %d", a, b.ReplicaOffset)
			}
			if !t.Failed() {
				lost++
			}
		})
	}
	t.Logf("lock lost with --cut pause in %d/%d runs", lost, pauseRuns)
	if errs[0] == nil {
		t.Logf("run 1 while paused:\n%s\nafter the promotion:\n%s", results[0].before, results[0].after)
	}
}

// TestPauseHealBeforeTheCrash is the control: unpaused before the crash,
// the replica applies the SET it was holding, and the lock survives.
func TestPauseHealBeforeTheCrash(t *testing.T) {
	t.Parallel()
	redistest.NeedProgram(t, "redis-server")
	res, err := pauseLesson(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	if res.got.Kind != resp.Bulk || res.got.Str != "tokA" || res.bSet.Kind != resp.Nil {
		t.Errorf("on the promoted replica: GET = %v, B's SET NX = %v; want tokA, nil", res.got, res.bSet)
	}
	if res.after.ReplicaOffset <= res.before.ReplicaOffset {
		t.Errorf("the replica's offset did not move:\n%s\n%s", res.before, res.after)
	}
}

// TestAttach: the lesson on servers locklab does not own, as the shell
// runs it against docker compose: Attach, PauseCut, CrashPrimary (SHUTDOWN
// NOSAVE NOW, then the replica's link is down), PauseHeal, Promote. Close
// leaves the servers alone.
func TestAttach(t *testing.T) {
	t.Parallel()
	top := start(t)
	ctx := context.Background()
	if _, err := Attach(ctx, top.Replica.Addr(), top.Primary.Addr()); err == nil {
		t.Error("Attach with the roles swapped: no error")
	}
	at, err := Attach(ctx, top.Primary.Addr(), top.Replica.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Close()
	if p, r := at.PIDs(); p != 0 || r != 0 || at.PrimaryAddr() != top.Primary.Addr() || at.ReplicaAddr() != top.Replica.Addr() {
		t.Errorf("attached: PIDs %d %d, addresses %s %s", p, r, at.PrimaryAddr(), at.ReplicaAddr())
	}
	if err := PauseCut(ctx, at.ReplicaAddr()); err != nil {
		t.Fatal(err)
	}
	a := connect(t, at.PrimaryAddr(), "A")
	if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
		t.Fatalf("A's SET: %v", got)
	}
	before := at.Status(ctx)
	if err := at.CrashPrimary(ctx); err != nil {
		t.Fatal(err)
	}
	if err := PauseHeal(ctx, at.ReplicaAddr()); err != nil {
		t.Fatal(err)
	}
	if err := at.Promote(ctx); err != nil {
		t.Fatal(err)
	}
	after := at.Status(ctx)
	if before.Proxied || after.PrimaryRole != "down" || after.PrimaryOffset != before.PrimaryOffset ||
		after.ReplicaOffset != before.ReplicaOffset || after.Behind() <= 0 || after.ReplicaRole != "master" {
		t.Errorf("before the crash:\n%s\nafter the promotion:\n%s", before, after)
	}
	b := connect(t, at.ReplicaAddr(), "B")
	if got := b.do("SET", lockKey, "tokB", "NX", "PX", "30000"); !isOK(got) {
		t.Errorf("B's SET NX: %v", got)
	}
	at.Close()
	if _, r := top.PIDs(); !Alive(r) {
		t.Error("closing the attached topology stopped the replica")
	}
	t.Logf("attached, after the promotion:\n%s", after)
}
