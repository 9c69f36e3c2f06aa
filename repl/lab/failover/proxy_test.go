package failover

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
)

// TestUpSyncBarrier: after Up, the replica holds the canary the primary
// wrote, both servers are at the same offset and nothing was dropped.
func TestUpSyncBarrier(t *testing.T) {
	t.Parallel()
	top := start(t)
	p, r := connect(t, top.Primary.Addr(), ""), connect(t, top.Replica.Addr(), "")
	want := p.do("GET", Canary)
	if want.Kind != resp.Bulk || want.Str == "" {
		t.Fatalf("GET %s on the primary = %v", Canary, want)
	}
	if got := r.do("GET", Canary); got.Kind != resp.Bulk || got.Str != want.Str {
		t.Errorf("GET %s on the replica = %v, want %q", Canary, got, want.Str)
	}
	var st Replication
	if !eventually(2*time.Second, func() bool { st = top.Status(context.Background()); return st.Behind() == 0 }) {
		t.Errorf("the replica is behind after Up:\n%s", st)
	}
	if st.PrimaryRole != "master" || st.ReplicaRole != "slave" || st.LinkStatus != "up" || !st.PrimaryUp ||
		st.PrimaryOffset == 0 || st.DroppedDown != 0 || st.DroppedUp != 0 {
		t.Errorf("status after Up:\n%s\n%+v", st, st)
	}
	t.Logf("after Up:\n%s", st)
}

// TestProxyCutDownstream: a one-way cut keeps the link up, the replica's
// offset stops while the primary's grows by exactly the bytes dropped,
// and the replica keeps acknowledging (its old offset). After Heal, new
// writes flow again, but what was dropped stays missing and the gap
// stays, so WAIT can no longer be satisfied, until the replica reconnects
// and resyncs.
func TestProxyCutDownstream(t *testing.T) {
	t.Parallel()
	top := start(t)
	ctx := context.Background()
	w, r := connect(t, top.Primary.Addr(), "writer"), connect(t, top.Replica.Addr(), "reader")
	before := top.Status(ctx)

	top.Proxy.Cut(Downstream)
	if !top.Proxy.Cutting(Downstream) || top.Proxy.Cutting(Upstream) || top.Proxy.Cutting(Both) {
		t.Fatal("Cutting does not reflect Cut(Downstream)")
	}
	for i := range 5 {
		if rep := w.do("SET", "k:"+strconv.Itoa(i), "v"); !isOK(rep) {
			t.Fatalf("SET: %v", rep)
		}
	}
	var mid Replication
	eventually(time.Second, func() bool {
		mid = top.Status(ctx)
		return mid.DroppedDown > 0 && mid.Behind() == mid.DroppedDown
	})
	if mid.PrimaryOffset <= before.PrimaryOffset || mid.ReplicaOffset != before.ReplicaOffset ||
		mid.DroppedDown == 0 || mid.Behind() != mid.DroppedDown || mid.DroppedUp != 0 {
		t.Fatalf("during the cut:\n%s\nbefore it:\n%s", mid, before)
	}
	if got := r.do("GET", "k:0"); got.Kind != resp.Nil {
		t.Errorf("GET k:0 on the replica = %v, want nil", got)
	}
	if got := w.do("WAIT", "1", "200"); !isInt(got, 0) {
		t.Errorf("WAIT 1 200 after the writes = %v, want 0", got)
	}
	// The replica's ACKs (once a second) still reach the primary: the
	// link stays up on both sides, with no lag. Wait for the first ACK
	// the proxy passes on after the cut (bytes upstream past what it had
	// passed on when the writes above went out), however late it comes.
	acks := top.Proxy.forwarded[up].Load()
	if !eventually(10*time.Second, func() bool { return top.Proxy.forwarded[up].Load() > acks }) {
		t.Fatalf("no ACK reached the primary in 10 s of a one-way cut (%d bytes up dropped)", top.Proxy.dropped[up].Load())
	}
	st := top.Status(ctx)
	if st.LinkStatus != "up" || st.DroppedUp != 0 {
		t.Errorf("an ACK into the cut:\n%s", st)
	}
	if lag := replicaLag(t, w); lag > 1 {
		t.Errorf("the primary sees a lag of %d s on a one-way cut", lag)
	}

	top.Proxy.Heal(Downstream)
	if got := w.do("SET", "after", "v"); !isOK(got) {
		t.Fatalf("SET after: %v", got)
	}
	if !eventually(2*time.Second, func() bool { return r.do("GET", "after").Kind == resp.Bulk }) {
		t.Fatal("after Heal, a new write never reached the replica")
	}
	if got := r.do("GET", "k:0"); got.Kind != resp.Nil {
		t.Errorf("after Heal, GET k:0 on the replica = %v: the dropped write came back", got)
	}
	healed := top.Status(ctx)
	// (WAIT's REPLCONF GETACK was dropped too: the gap is all the bytes
	// dropped, no more, no less.)
	if healed.LinkStatus != "up" || healed.Behind() != healed.DroppedDown || healed.DroppedDown < mid.DroppedDown {
		t.Errorf("after Heal:\n%s\nwant the replica still behind by the bytes dropped", healed)
	}
	// The replica acknowledges its own offset, which never reaches the
	// primary's: WAIT cannot succeed on this link any more.
	if got := w.do("WAIT", "1", "500"); !isInt(got, 0) {
		t.Errorf("WAIT 1 500 after Heal = %v, want 0", got)
	}
	// A reconnect ends the divergence: PSYNC asks for the primary's stream
	// from the replica's offset, which lands inside the bytes dropped
	// (Redis 7.0.15 then logs "Protocol error ... Desync?", drops the link
	// and does a full resync). Either way the replica ends up with what it
	// missed.
	if got := r.do("CLIENT", "KILL", "TYPE", "master"); !isInt(got, 1) {
		t.Fatalf("CLIENT KILL TYPE master: %v", got)
	}
	var resynced Replication
	if !eventually(5*time.Second, func() bool {
		resynced = top.Status(ctx)
		return resynced.LinkStatus == "up" && resynced.Behind() == 0 && r.do("GET", "k:0").Kind == resp.Bulk
	}) {
		t.Errorf("after a reconnect, the replica did not catch up:\n%s", resynced)
	}
	t.Logf("during the cut:\n%s\nafter Heal:\n%s\nafter a reconnect:\n%s", mid, healed, resynced)
}

// TestProxyCutUpstream: cutting only the replica's way back lets the
// writes through but not the acknowledgements: WAIT answers 0 although
// the replica has the write. Heal brings the ACKs back.
func TestProxyCutUpstream(t *testing.T) {
	t.Parallel()
	top := start(t)
	w, r := connect(t, top.Primary.Addr(), "writer"), connect(t, top.Replica.Addr(), "reader")
	top.Proxy.Cut(Upstream)
	if got := w.do("SET", "k", "v"); !isOK(got) {
		t.Fatalf("SET: %v", got)
	}
	if !eventually(2*time.Second, func() bool { return r.do("GET", "k").Kind == resp.Bulk }) {
		t.Fatal("the write did not reach the replica with only the way back cut")
	}
	if got := w.do("WAIT", "1", "300"); !isInt(got, 0) {
		t.Errorf("WAIT 1 300 with the ACKs cut = %v, want 0 (the replica has the write)", got)
	}
	if _, up := top.Proxy.Dropped(); up == 0 {
		t.Errorf("no ACK bytes dropped")
	}
	top.Proxy.Heal(Upstream)
	if got := w.do("WAIT", "1", "3000"); !isInt(got, 1) {
		t.Errorf("WAIT 1 3000 after Heal = %v, want 1", got)
	}
}

// TestProxyHidesTheEndWhileCut: with primary->replica cut, the primary's
// end does not reach the replica, which keeps its link up; Heal reveals
// it; CloseAll refuses new connections.
func TestProxyHidesTheEndWhileCut(t *testing.T) {
	t.Parallel()
	top := start(t)
	ctx := context.Background()
	top.Proxy.Cut(Downstream)
	if err := ShutdownNow(ctx, top.Primary.Addr()); err != nil {
		t.Fatal(err)
	}
	p, _ := top.PIDs()
	if !gone(p, 5*time.Second) {
		t.Fatal("the primary did not exit on SHUTDOWN NOSAVE NOW")
	}
	// The proxy sees the primary's end and hides it (a link marked
	// broken); the replica must not learn of it: its link stays up, for
	// as long as we watch (300 ms; a replica that is told sees it within
	// milliseconds, as WaitLinkDown shows after Heal).
	if !eventually(10*time.Second, func() bool { return top.Proxy.hidden() > 0 }) {
		t.Fatal("the proxy never saw the primary's end")
	}
	var st Replication
	if !holds(300*time.Millisecond, func() bool { st = top.Status(ctx); return st.LinkStatus == "up" }) {
		t.Errorf("with the end hidden, master_link_status = %q, want up", st.LinkStatus)
	}
	top.Proxy.Heal(Downstream)
	if err := WaitLinkDown(ctx, top.Replica.Addr()); err != nil {
		t.Errorf("after Heal: %v", err)
	}
	top.Proxy.CloseAll()
	// The proxy keeps its port, but closes what it accepts.
	c, err := net.DialTimeout("tcp", top.Proxy.Addr(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("a connection after CloseAll read %d bytes, %v; want EOF", n, err)
	}
	top.Proxy.Close()
	if err := stoppedListening(top.Proxy); err != nil {
		t.Errorf("after Close: %v", err)
	}
}

func TestDirectionString(t *testing.T) {
	for d, want := range map[Direction]string{Downstream: "primary->replica", Upstream: "replica->primary", Both: "both ways"} {
		if d.String() != want {
			t.Errorf("%d: %q, want %q", int(d), d, want)
		}
	}
}

func TestReplicationString(t *testing.T) {
	r := Replication{PrimaryRole: "down", ReplicaRole: "master", PrimaryOffset: 262, ReplicaOffset: 117,
		DroppedDown: 145, Proxied: true}
	want := `         role    offset           link
primary  down    262 (last seen)
replica  master  117
the replica has not applied 145 bytes of the primary's stream
proxy dropped 145 bytes primary->replica, 0 bytes replica->primary`
	if got := trimLines(r.String()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	r = Replication{PrimaryRole: "master", ReplicaRole: "slave", PrimaryOffset: 50, ReplicaOffset: 50, LinkStatus: "up", PrimaryUp: true}
	want = `         role    offset  link
primary  master  50
replica  slave   50      up
the replica has applied all of the primary's stream`
	if got := trimLines(r.String()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// replicaLag is the lag the primary reports for its first replica.
func replicaLag(t *testing.T, primary *client) int {
	t.Helper()
	in := primary.do("INFO", "replication").Str
	for _, line := range strings.Split(in, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "slave0:"); ok {
			for _, kv := range strings.Split(rest, ",") {
				if v, ok := strings.CutPrefix(kv, "lag="); ok {
					n, _ := strconv.Atoi(v)
					return n
				}
			}
		}
	}
	t.Fatalf("no slave0 in INFO replication:\n%s", in)
	return 0
}

// TestUpWithServerOptions: options go to both servers, and the barrier
// waits out a primary that refuses writes until it counts its replica.
func TestUpWithServerOptions(t *testing.T) {
	t.Parallel()
	top := start(t, "--min-replicas-to-write", "1", "--min-replicas-max-lag", "2")
	p := connect(t, top.Primary.Addr(), "")
	if got := p.do("CONFIG", "GET", "min-replicas-to-write"); len(got.Elems) != 2 || got.Elems[1].Str != "1" {
		t.Errorf("CONFIG GET min-replicas-to-write on the primary: %v", got)
	}
}
