package failover

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

// failover crashes the primary and promotes the replica, failing the test
// if either does not happen.
func failover(t *testing.T, top *Topology) {
	t.Helper()
	ctx := context.Background()
	if err := top.CrashPrimary(ctx); err != nil {
		t.Fatal(err)
	}
	if err := top.Promote(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestMitigationRefuseUnacknowledged is the Redisson way: A keeps the
// lock only if WAIT on its own connection says the replica has it.
func TestMitigationRefuseUnacknowledged(t *testing.T) {
	t.Parallel()
	t.Run("cut", func(t *testing.T) {
		t.Parallel()
		top := start(t)
		a := connect(t, top.Primary.Addr(), "A")
		top.Proxy.Cut(Downstream)
		if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
			t.Fatalf("A's SET: %v", got)
		}
		keeps := isInt(a.do("WAIT", "1", "200"), 1)
		if keeps {
			t.Fatal("WAIT 1 200 on A's connection acknowledged a write the proxy dropped")
		}
		// A refuses the lock and releases it (best effort).
		if got := a.do("EVAL", releaseScript, "1", lockKey, "tokA"); !isInt(got, 1) {
			t.Errorf("A's release on the primary: %v", got)
		}
		failover(t, top)
		b := connect(t, top.Replica.Addr(), "B")
		if got := b.do("SET", lockKey, "tokB", "NX", "PX", "30000"); !isOK(got) {
			t.Fatalf("B's SET: %v", got)
		}
		// One holder: B. A never used the lock.
	})
	t.Run("healthy link", func(t *testing.T) {
		t.Parallel()
		top := start(t)
		a := connect(t, top.Primary.Addr(), "A")
		if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
			t.Fatalf("A's SET: %v", got)
		}
		if got := a.do("WAIT", "1", "1000"); !isInt(got, 1) {
			t.Fatalf("WAIT 1 1000 on a healthy link = %v, want 1", got)
		}
		failover(t, top)
		b := connect(t, top.Replica.Addr(), "B")
		if got := b.do("GET", lockKey); got.Kind != resp.Bulk || got.Str != "tokA" {
			t.Errorf("GET on the promoted replica = %v, want tokA: an acknowledged lock survives", got)
		}
		if got := b.do("SET", lockKey, "tokB", "NX", "PX", "30000"); got.Kind != resp.Nil {
			t.Errorf("B's SET NX = %v, want nil: A still holds it", got)
		}
	})
}

// TestMitigationMinReplicas: min-replicas-to-write 1 with
// min-replicas-max-lag 2 on the primary. A one-way cut never trips it:
// the ACKs keep arriving. With both ways cut, writes still succeed for
// about three seconds and then fail with NOREPLICAS; a lock taken in that
// window is lost on failover all the same.
func TestMitigationMinReplicas(t *testing.T) {
	t.Parallel()
	guard := func(t *testing.T, top *Topology) *client {
		a := connect(t, top.Primary.Addr(), "A")
		for _, kv := range [][2]string{{"min-replicas-to-write", "1"}, {"min-replicas-max-lag", "2"}} {
			if got := a.do("CONFIG", "SET", kv[0], kv[1]); !isOK(got) {
				t.Fatalf("CONFIG SET %s: %v", kv[0], got)
			}
		}
		return a
	}
	lost := func(t *testing.T, top *Topology) {
		t.Helper()
		failover(t, top)
		b := connect(t, top.Replica.Addr(), "B")
		if got := b.do("EXISTS", lockKey); !isInt(got, 0) {
			t.Errorf("EXISTS on the promoted replica = %v, want 0", got)
		}
	}
	t.Run("one-way cut", func(t *testing.T) {
		t.Parallel()
		top := start(t)
		a := guard(t, top)
		top.Proxy.Cut(Downstream)
		if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
			t.Fatalf("A's SET: %v", got)
		}
		for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
			if got := a.do("SET", "work", "x"); !isOK(got) {
				t.Fatalf("SET with only primary->replica cut: %v (want OK: ACKs still arrive)", got)
			}
		}
		if lag := replicaLag(t, a); lag > 1 {
			t.Errorf("lag %d s on a one-way cut", lag)
		}
		if got := a.do("WAIT", "1", "200"); !isInt(got, 0) {
			t.Errorf("WAIT 1 200 = %v, want 0: none of it reached the replica", got)
		}
		lost(t, top)
	})
	t.Run("both ways cut", func(t *testing.T) {
		t.Parallel()
		top := start(t)
		a := guard(t, top)
		top.Proxy.Cut(Both)
		cut := time.Now()
		if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
			t.Fatalf("A's SET right after the cut: %v (want OK: the window)", got)
		}
		var refused resp.Reply
		for time.Since(cut) < 8*time.Second {
			got := a.do("SET", "work", "x")
			if got.IsError() {
				refused = got
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		after := time.Since(cut)
		if !strings.HasPrefix(refused.Str, "NOREPLICAS") {
			t.Fatalf("no NOREPLICAS within %v (last: %v)", after.Round(time.Millisecond), refused)
		}
		if after < 2*time.Second || after > 5*time.Second {
			t.Errorf("NOREPLICAS after %v, want about 3 s", after)
		}
		t.Logf("writes succeeded for %v after the cut, then: %s", after.Round(100*time.Millisecond), refused.Str)
		lost(t, top)
	})
}

// fencedWrite is the storage service's guard: it refuses a token older
// than the newest it has seen (an equal one is accepted: the same holder
// writing again). KEYS[1] newest token, KEYS[2] the writes; ARGV token,
// writer. 1 accepted, 0 refused.
const fencedWrite = `local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) < last then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
return 1`

// TestMitigationFencing: fencing tokens protect the resource only if the
// counter survives the failover. An INCR in the Redis that fails over is
// lost with the lock, so B gets A's token again and the resource takes
// both writers. A counter the failover cannot roll back (here a separate
// server that does not fail over) gives B a larger token, and A's late
// write is refused, though two clients still hold the lock.
func TestMitigationFencing(t *testing.T) {
	t.Parallel()
	top := start(t)
	store := redistest.Real(t) // the storage service, with its own counter
	s := connect(t, store, "store")
	a := connect(t, top.Primary.Addr(), "A")
	aStore := connect(t, store, "A")

	top.Proxy.Cut(Downstream)
	if got := a.do("SET", lockKey, "tokA", "NX", "PX", "30000"); !isOK(got) {
		t.Fatalf("A's SET: %v", got)
	}
	sameA := a.do("INCR", lockKey+":fence")     // in the lock's Redis
	apartA := aStore.do("INCR", "fence:seat-1") // in the storage service
	failover(t, top)
	b := connect(t, top.Replica.Addr(), "B")
	if got := b.do("SET", lockKey, "tokB", "NX", "PX", "30000"); !isOK(got) {
		t.Fatalf("B's SET: %v", got)
	}
	sameB := b.do("INCR", lockKey+":fence")
	apartB := s.do("INCR", "fence:seat-1")

	if !isInt(sameA, 1) || !isInt(sameB, 1) {
		t.Errorf("counter in the lock's Redis: A got %v, B %v; want 1 and 1 (the INCR was lost too)", sameA, sameB)
	}
	if !isInt(apartA, 1) || !isInt(apartB, 2) {
		t.Errorf("counter in the storage service: A got %v, B %v; want 1 and 2", apartA, apartB)
	}
	write := func(slot string, token resp.Reply, who string) resp.Reply {
		return s.do("EVAL", fencedWrite, "2", slot+":newest", slot+":writes", strconv.FormatInt(token.Int, 10), who)
	}
	// B writes first, then A (paused, still believing it holds the lock).
	if got := write("same", sameB, "B"); !isInt(got, 1) {
		t.Errorf("B's write with token %d: %v", sameB.Int, got)
	}
	if got := write("same", sameA, "A"); !isInt(got, 1) {
		t.Errorf("A's late write with the duplicate token %d = %v, want 1 (accepted: the fence cannot tell)", sameA.Int, got)
	}
	if got := write("apart", apartB, "B"); !isInt(got, 1) {
		t.Errorf("B's write with token %d: %v", apartB.Int, got)
	}
	if got := write("apart", apartA, "A"); !isInt(got, 0) {
		t.Errorf("A's late write with token %d = %v, want 0 (refused)", apartA.Int, got)
	}
}
