package failover

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
)

// Canary is the key Up writes on the primary and reads back on the
// replica to prove the replica is in sync. It stays, so a user can check.
const Canary = "locklab:canary"

// Server options both servers get before the caller's: an initial sync
// that starts at once (Redis 7 waits 5 s for more replicas by default) and
// a replication timeout of an hour, so a blackholed link does not end in
// a reconnect and a resync.
var baseOptions = []string{"--repl-diskless-sync-delay", "0", "--repl-timeout", "3600"}

// Topology is a primary and its replica. Started by Up, they are
// redis-server child processes with Proxy in the replication link (the
// replica replicates from Proxy.Addr()). Attached with Attach, they are
// servers someone else runs, and Primary, Replica and Proxy are nil. The
// names stay across a failover: after CrashPrimary and Promote, the
// replica is the server to write to.
type Topology struct {
	Primary, Replica *server.Process
	Proxy            *Proxy

	primaryAddr, replicaAddr string
	primaryPID, replicaPID   int
	admin                    [2]*session.Conn // primary, replica: INFO and the like

	mu          sync.Mutex
	lastOffset  int64 // the primary's master_repl_offset, last read
	crashed     bool
	crashMethod string

	closeOnce sync.Once
}

// Up starts a primary, a proxy to it and a replica of the proxy, each
// server in its own subdirectory of dir, and returns once the replica is
// in sync (see the package documentation for the barrier). extra are
// server options for both servers, after locklab's own, e.g.
// "--repl-timeout", "60". Without redis-server on PATH the error is
// server.ErrNoRedisServer, which says how to install it.
func Up(ctx context.Context, dir string, extra ...string) (*Topology, error) {
	pdir, rdir := filepath.Join(dir, "primary"), filepath.Join(dir, "replica")
	for _, d := range []string{pdir, rdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	opts := append(append([]string{}, baseOptions...), extra...)
	primary, err := startServer(ctx, pdir, opts...)
	if err != nil {
		return nil, err
	}
	t := &Topology{Primary: primary}
	if t.Proxy, err = NewProxy(primary.Addr()); err != nil {
		t.Close()
		return nil, err
	}
	_, port, _ := net.SplitHostPort(t.Proxy.Addr())
	t.Replica, err = startServer(ctx, rdir, append(opts, "--replicaof", "127.0.0.1", port)...)
	if err != nil {
		t.Close()
		return nil, err
	}
	t.connect(primary.Addr(), t.Replica.Addr())
	for i, pid := range []*int{&t.primaryPID, &t.replicaPID} {
		in, err := info(ctx, t.admin[i], "server")
		if err != nil {
			t.Close()
			return nil, err
		}
		*pid, _ = strconv.Atoi(in["process_id"])
	}
	if err := barrier(ctx, t.primaryAddr, t.replicaAddr); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Attach is a topology of servers locklab does not own (docker compose
// --profile failover): a primary and a replica that replicates from it,
// by address. It checks the roles, then runs the same sync barrier as Up.
// There is no proxy: cut the link with PauseCut. Close stops nothing.
func Attach(ctx context.Context, primaryAddr, replicaAddr string) (*Topology, error) {
	t := &Topology{}
	t.connect(primaryAddr, replicaAddr)
	for i, want := range []string{"master", "slave"} {
		in, err := info(ctx, t.admin[i], "replication")
		if err != nil {
			t.Close()
			return nil, err
		}
		if in["role"] != want {
			t.Close()
			return nil, fmt.Errorf("%s is role:%s, want role:%s", []string{primaryAddr, replicaAddr}[i], in["role"], want)
		}
	}
	if err := barrier(ctx, primaryAddr, replicaAddr); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func (t *Topology) connect(primary, replica string) {
	t.primaryAddr, t.replicaAddr = primary, replica
	t.admin[0] = dial(primary, "locklab-topology")
	t.admin[1] = dial(replica, "locklab-topology")
}

// PrimaryAddr and ReplicaAddr are the servers' host:port.
func (t *Topology) PrimaryAddr() string { return t.primaryAddr }

// ReplicaAddr: see PrimaryAddr.
func (t *Topology) ReplicaAddr() string { return t.replicaAddr }

// startServer is server.StartProcess, checked: the server that answers on
// the port must be the one started in dir. StartProcess picks a port by
// binding and releasing it; another server started at the same time can
// take it, and then ours exits while the other answers. Then it retries.
func startServer(ctx context.Context, dir string, opts ...string) (*server.Process, error) {
	var lastErr error
	for range 5 {
		p, err := server.StartProcess(ctx, dir, opts...)
		switch {
		case errors.Is(err, server.ErrNoRedisServer) || ctx.Err() != nil:
			return nil, err
		case err != nil:
			lastErr = err
			continue
		}
		if lastErr = ours(ctx, p.Addr(), dir); lastErr == nil {
			return p, nil
		}
		p.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err() // cancelled: no other server is started
		}
	}
	return nil, lastErr
}

// ours checks that the server at addr runs in dir.
func ours(ctx context.Context, addr, dir string) error {
	c := dial(addr, "")
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	r, err := c.Do(ctx, []string{"CONFIG", "GET", "dir"})
	if err != nil {
		return err
	}
	if r.Kind != resp.Array || len(r.Elems) != 2 || !sameDir(r.Elems[1].Str, dir) {
		return fmt.Errorf("another server answers on %s (CONFIG GET dir: %v)", addr, r)
	}
	return nil
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// barrier waits until the replica is in sync with the primary: its link is
// up with no sync in progress, a canary written on one connection is
// acknowledged by WAIT 1 on that same connection, and reads back on the
// replica.
func barrier(ctx context.Context, primary, replica string) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r := dial(replica, "locklab-barrier")
	defer r.Close()
	var last map[string]string
	for {
		in, err := info(ctx, r, "replication")
		if err == nil && in["master_link_status"] == "up" && in["master_sync_in_progress"] == "0" {
			break
		}
		last = in
		select {
		case <-ctx.Done():
			return fmt.Errorf("the replica did not sync (master_link_status:%s master_sync_in_progress:%s): %w",
				last["master_link_status"], last["master_sync_in_progress"], ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	value := randomToken()
	p := dial(primary, "locklab-barrier")
	defer p.Close()
	// SET is retried: with min-replicas-to-write, the primary refuses
	// writes until it has counted the replica.
	for {
		err := expect(ctx, p, []string{"SET", Canary, value}, okStatus)
		if err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sync barrier: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	// The replica has loaded the data; the primary counts it once its
	// first ACK arrived and the sync's fork was reaped. Under load that
	// can take more than one WAIT.
	for {
		r, err := p.Do(ctx, []string{"WAIT", "1", "1000"})
		if err != nil {
			return fmt.Errorf("sync barrier: WAIT 1 1000: %w", err)
		}
		if r.Kind == resp.Int && r.Int == 1 {
			break
		}
		if r.Kind != resp.Int {
			return fmt.Errorf("sync barrier: WAIT 1 1000: %v", r)
		}
	}
	return expect(ctx, r, []string{"GET", Canary}, func(r resp.Reply) bool { return r.Kind == resp.Bulk && r.Str == value })
}

// CrashPrimary stops the primary without letting it wait for its
// replica: SHUTDOWN NOSAVE NOW. On a topology Up started, it sends SIGKILL
// if that was refused, waits until the process is gone, and then closes
// every connection of the proxy, so nothing it held can reach the replica
// later. Either way it returns once the replica reports
// master_link_status:down. Before all that it reads the primary's offset,
// which Status keeps reporting.
func (t *Topology) CrashPrimary(ctx context.Context) error {
	t.mu.Lock()
	if t.crashed {
		t.mu.Unlock()
		return errors.New("the primary has already crashed")
	}
	t.mu.Unlock()
	if in, err := info(ctx, t.admin[0], "replication"); err == nil {
		t.setOffset(in)
	}
	method := "SHUTDOWN NOSAVE NOW"
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := ShutdownNow(sctx, t.primaryAddr)
	cancel()
	if t.Primary == nil {
		if err != nil {
			return err
		}
	} else {
		if err != nil || !gone(t.primaryPID, 5*time.Second) {
			method = "SIGKILL"
		}
		t.Primary.Close() // SIGKILL if still there; waits for the exit either way
		t.Proxy.CloseAll()
	}
	t.admin[0].Close()
	t.mu.Lock()
	t.crashed, t.crashMethod = true, method
	t.mu.Unlock()
	return WaitLinkDown(ctx, t.replicaAddr)
}

// CrashMethod says how CrashPrimary stopped the primary ("SHUTDOWN NOSAVE
// NOW" or "SIGKILL"), or "" before it did.
func (t *Topology) CrashMethod() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.crashMethod
}

// Promote makes the replica a primary (REPLICAOF NO ONE) and waits until
// it says role:master.
func (t *Topology) Promote(ctx context.Context) error {
	return PromoteReplica(ctx, t.replicaAddr)
}

// PIDs are the process IDs of the primary and the replica (0 when
// attached).
func (t *Topology) PIDs() (primary, replica int) { return t.primaryPID, t.replicaPID }

// Status reads both servers' INFO replication and the proxy's counts.
// Once the primary is down, PrimaryOffset is the last offset read from it
// (CrashPrimary reads it just before the crash).
func (t *Topology) Status(ctx context.Context) Replication {
	t.mu.Lock()
	crashed := t.crashed
	t.mu.Unlock()
	var rep Replication
	if crashed {
		rep.PrimaryRole = "down"
	} else {
		in := rep.primary(ctx, t.admin[0])
		if rep.PrimaryUp {
			t.setOffset(in)
		}
	}
	if !rep.PrimaryUp {
		t.mu.Lock()
		rep.PrimaryOffset = t.lastOffset
		t.mu.Unlock()
	}
	rep.replica(ctx, t.admin[1])
	if t.Proxy != nil {
		rep.Proxied = true
		rep.DroppedDown, rep.DroppedUp = t.Proxy.Dropped()
	}
	return rep
}

func (t *Topology) setOffset(in map[string]string) {
	if n, err := strconv.ParseInt(in["master_repl_offset"], 10, 64); err == nil {
		t.mu.Lock()
		t.lastOffset = n
		t.mu.Unlock()
	}
}

// Close stops the servers Up started (SIGKILL, by PID, waiting for each
// to exit) and the proxy; on an attached topology it only closes its
// connections. It may be called more than once.
func (t *Topology) Close() {
	t.closeOnce.Do(func() {
		for _, c := range t.admin {
			if c != nil {
				c.Close()
			}
		}
		if t.Replica != nil {
			t.Replica.Close()
		}
		if t.Primary != nil {
			t.Primary.Close()
		}
		if t.Proxy != nil {
			t.Proxy.Close()
		}
	})
}
