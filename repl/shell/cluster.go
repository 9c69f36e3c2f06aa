package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/server"
	"github.com/locklab/locklab/repl/topology"
)

// cluster is the primary/replica pair a failover lab runs on: real
// redis-server children with a proxy in the replication link (cluster
// up), or servers the user runs (cluster attach, cut with CLIENT PAUSE).
type cluster struct {
	t        *topology.Topology
	dir      string // the temporary directory of servers we started
	promoted bool   // the replica is the primary now
	paused   bool   // the link is "cut" with CLIENT PAUSE WRITE
}

const clusterUsage = "cluster up | cluster down | cluster attach PRIMARY_HOST:PORT REPLICA_HOST:PORT"

// clusterWord is `cluster up|down|attach`.
func (s *Shell) clusterWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) < 2 {
		return usageFail(hc, clusterUsage)
	}
	switch {
	case args[1] == "up" && len(args) == 2:
		return s.clusterUp(ctx, hc)
	case args[1] == "attach" && len(args) == 4:
		return s.clusterAttach(ctx, hc, args[2], args[3])
	case args[1] == "down" && len(args) == 2:
		s.CloseCluster()
		fmt.Fprintln(hc.Stdout, "cluster: stopped")
		return nil
	}
	return usageFail(hc, clusterUsage)
}

func usageFail(hc interp.HandlerContext, usage string) error {
	fmt.Fprintln(hc.Stderr, "locklab: usage:", usage)
	return interp.ExitStatus(2)
}

func (s *Shell) clusterUp(ctx context.Context, hc interp.HandlerContext) error {
	s.CloseCluster()
	dir, err := os.MkdirTemp("", "locklab-cluster-")
	if err != nil {
		return fmt.Errorf("cluster up: %w", err)
	}
	t, err := topology.Up(ctx, dir)
	if err != nil {
		os.RemoveAll(dir)
		if errors.Is(err, server.ErrNoRedisServer) {
			// Nothing after this can work: stop the script here.
			return fmt.Errorf("cluster up needs real Redis servers: %w", err)
		}
		fmt.Fprintln(hc.Stderr, "locklab: cluster up:", err)
		return interp.ExitStatus(1)
	}
	s.setCluster(&cluster{t: t, dir: dir})
	fmt.Fprintf(hc.Stdout, "cluster: primary %s, replica %s (replicating through a proxy at %s), in sync\n",
		t.PrimaryAddr(), t.ReplicaAddr(), t.Proxy.Addr())
	return nil
}

func (s *Shell) clusterAttach(ctx context.Context, hc interp.HandlerContext, primary, replica string) error {
	t, err := topology.Attach(ctx, primary, replica)
	if err != nil {
		fmt.Fprintln(hc.Stderr, "locklab: cluster attach:", err)
		return interp.ExitStatus(1)
	}
	s.CloseCluster()
	s.setCluster(&cluster{t: t})
	fmt.Fprintf(hc.Stdout, "cluster: attached to primary %s and replica %s, in sync (cut the link with: link cut --pause)\n", primary, replica)
	return nil
}

func (s *Shell) setCluster(c *cluster) {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	s.cluster = c
}

func (s *Shell) currentCluster() *cluster {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	return s.cluster
}

// CloseCluster stops the servers cluster up started (by PID) and removes
// their directory. It is safe to call when there is none.
func (s *Shell) CloseCluster() {
	s.jobMu.Lock()
	c := s.cluster
	s.cluster = nil
	s.jobMu.Unlock()
	if c == nil {
		return
	}
	c.t.Close()
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

func (s *Shell) needCluster(hc interp.HandlerContext) *cluster {
	c := s.currentCluster()
	if c == nil {
		fmt.Fprintln(hc.Stderr, "locklab: no cluster: start one with `cluster up` (or `cluster attach PRIMARY REPLICA`)")
	}
	return c
}

// linkWord is `link cut|heal [--both] [--pause]`: drop the replication
// stream primary->replica (or both ways) in the proxy, keeping the
// connection open; --pause uses CLIENT PAUSE WRITE on the replica instead.
func (s *Shell) linkWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	const usage = "link cut|heal [--both] [--pause]"
	c := s.needCluster(hc)
	if c == nil {
		return interp.ExitStatus(1)
	}
	if len(args) < 2 || (args[1] != "cut" && args[1] != "heal") {
		return usageFail(hc, usage)
	}
	dir, pause := topology.Downstream, c.t.Proxy == nil
	for _, a := range args[2:] {
		switch a {
		case "--both":
			dir = topology.Both
		case "--pause":
			pause = true
		default:
			return usageFail(hc, usage)
		}
	}
	if pause {
		return s.pauseLink(ctx, hc, c, args[1] == "cut")
	}
	if args[1] == "cut" {
		c.t.Proxy.Cut(dir)
		fmt.Fprintf(hc.Stdout, "link: %s cut (the connection stays open; the bytes are dropped)\n", dir)
	} else {
		c.t.Proxy.Heal(dir)
		fmt.Fprintf(hc.Stdout, "link: %s healed (what was dropped stays lost)\n", dir)
	}
	return nil
}

func (s *Shell) pauseLink(ctx context.Context, hc interp.HandlerContext, c *cluster, cut bool) error {
	var err error
	if cut {
		err = topology.PauseCut(ctx, c.t.ReplicaAddr())
	} else {
		err = topology.PauseHeal(ctx, c.t.ReplicaAddr())
	}
	if err != nil {
		fmt.Fprintln(hc.Stderr, "locklab: link:", err)
		return interp.ExitStatus(1)
	}
	c.paused = cut
	fmt.Fprintf(hc.Stdout, "link: replica writes paused: %v (CLIENT PAUSE WRITE, relies on Redis internals; check the offsets)\n", cut)
	return nil
}

// crashWord is `crash primary`: SHUTDOWN NOSAVE NOW (SIGKILL if need be),
// and nothing the proxy still holds is forwarded afterwards.
func (s *Shell) crashWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	c := s.needCluster(hc)
	if c == nil || len(args) != 2 || args[1] != "primary" {
		return usageFail(hc, "crash primary")
	}
	if err := c.t.CrashPrimary(ctx); err != nil {
		fmt.Fprintln(hc.Stderr, "locklab: crash primary:", err)
		return interp.ExitStatus(1)
	}
	fmt.Fprintf(hc.Stdout, "primary %s crashed (%s)\n", c.t.PrimaryAddr(), c.t.CrashMethod())
	return nil
}

// promoteWord is `promote replica`: REPLICAOF NO ONE. From then on, `on
// primary` means the promoted replica.
func (s *Shell) promoteWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	c := s.needCluster(hc)
	if c == nil || len(args) != 2 || args[1] != "replica" {
		return usageFail(hc, "promote replica")
	}
	if c.paused {
		topology.PauseHeal(ctx, c.t.ReplicaAddr()) // after the crash: the paused write is discarded
	}
	if err := c.t.Promote(ctx); err != nil {
		fmt.Fprintln(hc.Stderr, "locklab: promote replica:", err)
		return interp.ExitStatus(1)
	}
	c.promoted = true
	s.annMu.Lock()
	s.ann.Failover(time.Now())
	s.annMu.Unlock()
	fmt.Fprintf(hc.Stdout, "replica %s promoted: it is the primary now\n", c.t.ReplicaAddr())
	return nil
}

// replicationWord prints both roles, the offsets and the bytes dropped.
func (s *Shell) replicationWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	c := s.needCluster(hc)
	if c == nil {
		return interp.ExitStatus(1)
	}
	text := c.t.Status(ctx).String()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprint(hc.Stdout, text)
	return nil
}

// onNode is `@NAME on primary|replica CMD ...`: session NAME now talks to
// that server (and stays there), then runs CMD.
func (s *Shell) onNode(ctx context.Context, name string, args []string) error {
	hc := interp.HandlerCtx(ctx)
	c := s.needCluster(hc)
	if c == nil || len(args) < 2 || (args[0] != "primary" && args[0] != "replica") {
		return usageFail(hc, "@NAME on primary|replica COMMAND ...")
	}
	addr := c.t.PrimaryAddr()
	if args[0] == "replica" || c.promoted {
		addr = c.t.ReplicaAddr()
	}
	t := s.cfg.Sessions.Target
	t.Network, t.Addr, t.Embedded, t.DB = "tcp", addr, false, 0
	s.cfg.Sessions.Retarget(name, t)
	return s.dispatch(context.WithValue(ctx, sessionKey{}, name), args[1:])
}
