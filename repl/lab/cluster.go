package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/failover"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lab/redlockload"
	"github.com/locklab/locklab/repl/lang/words"
)

const clusterUsage = "cluster up | cluster down | cluster attach PRIMARY_HOST:PORT REPLICA_HOST:PORT"

// clusterWord is `cluster up|down|attach`.
func clusterWord(ctx context.Context, env words.Env, args []string) error {
	if len(args) < 2 {
		return words.Usage(clusterUsage)
	}
	switch {
	case args[1] == "up" && len(args) == 2:
		return clusterUp(ctx, env)
	case args[1] == "attach" && len(args) == 4:
		return clusterAttach(ctx, env, args[2], args[3])
	case args[1] == "down" && len(args) == 2:
		stateOf(env).stopCluster()
		back := env.Sessions().Home()
		fmt.Fprintln(env.Stdout(), "cluster: stopped"+homeNote(back, env.Sessions().Target))
		return nil
	}
	return words.Usage(clusterUsage)
}

// clusterUp is `cluster up`: a primary and a replica, real redis-server
// children, unless the lab has a cluster already (or one is starting).
func clusterUp(ctx context.Context, env words.Env) error {
	start, err := stateOf(env).claimCluster(ctx, "cluster up")
	if err != nil {
		return err
	}
	c, err := startCluster(start)
	if err != nil {
		stateOf(env).clusters.Release()
		return clusterStartFailed(ctx, "cluster up", err)
	}
	if err := stateOf(env).holdCluster("cluster up", c); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout(), "cluster: primary %s, replica %s (replicating through a proxy at %s), in sync\n",
		c.t.PrimaryAddr(), c.t.ReplicaAddr(), c.t.Proxy.Addr())
	return nil
}

// startCluster starts a primary and a replica in a temporary directory
// of their own; on failure nothing of them is left.
func startCluster(ctx context.Context) (*cluster, error) {
	server.RemoveStale(clusterPrefix)
	dir, err := server.OwnedDir(clusterPrefix)
	if err != nil {
		return nil, err
	}
	t, err := failover.Up(ctx, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &cluster{t: t, dir: dir}, nil
}

// clusterStartFailed is the error of word when its start failed: Ctrl-C's
// (ctx is the word's own), a stop by `cluster down`, a missing
// redis-server, or what went wrong.
func clusterStartFailed(ctx context.Context, word string, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return words.Failf("%s: stopped (`cluster down`, or locklab ending) while it started", word)
	case errors.Is(err, server.ErrNoRedisServer):
		// Nothing after this can work: stop the script here.
		return fmt.Errorf("%s needs real Redis servers: %w", word, err)
	}
	return words.Failf("%s: %v", word, err)
}

// clusterPrefix names the temporary directories of `cluster up`.
const clusterPrefix = "locklab-cluster-"

// clusterAttach is `cluster attach PRIMARY REPLICA`: the lab's cluster is
// servers the user runs, unless it has one already.
func clusterAttach(ctx context.Context, env words.Env, primary, replica string) error {
	start, err := stateOf(env).claimCluster(ctx, "cluster attach")
	if err != nil {
		return err
	}
	t, err := failover.Attach(start, primary, replica)
	if err != nil {
		stateOf(env).clusters.Release()
		return clusterStartFailed(ctx, "cluster attach", err)
	}
	if err := stateOf(env).holdCluster("cluster attach", &cluster{t: t}); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout(), "cluster: attached to primary %s and replica %s, in sync (cut the link with: link cut --pause)\n", primary, replica)
	return nil
}

// needCluster is the cluster and its state, or an error saying how to
// start one.
func needCluster(env words.Env) (*cluster, bool, bool, error) {
	c, promoted, paused := stateOf(env).clusterNow()
	if c == nil {
		return nil, false, false, words.Failf("no cluster: start one with `cluster up` (or `cluster attach PRIMARY REPLICA`)")
	}
	return c, promoted, paused, nil
}

// clusterCommand is the cluster, and whether its link is paused, for a
// word whose one argument must be want (`crash primary`, `promote
// replica`).
func clusterCommand(env words.Env, args []string, want string) (*cluster, bool, error) {
	c, _, paused, err := needCluster(env)
	if err == nil && (len(args) != 2 || args[1] != want) {
		err = words.Usage(args[0] + " " + want)
	}
	return c, paused, err
}

// linkWord is `link cut|heal [--both] [--pause]`: drop the replication
// stream primary->replica (or both ways) in the proxy, keeping the
// connection open; --pause uses CLIENT PAUSE WRITE on the replica instead
// (the only cut of attached servers). Any heal gives a paused replica its
// writes back.
func linkWord(ctx context.Context, env words.Env, args []string) error {
	c, _, paused, err := needCluster(env)
	if err != nil {
		return err
	}
	if len(args) < 2 || (args[1] != "cut" && args[1] != "heal") {
		return words.Usage(linkUsage)
	}
	dir, pause, err := linkFlags(args[2:], c.t.Proxy == nil)
	if err != nil {
		return err
	}
	heal := args[1] == "heal"
	if heal && paused && !pause {
		if err := pauseLink(ctx, env, c, false); err != nil {
			return err
		}
	}
	if pause {
		return pauseLink(ctx, env, c, !heal)
	}
	if heal {
		c.t.Proxy.Heal(dir)
		fmt.Fprintf(env.Stdout(), "link: %s healed (what was dropped stays lost)\n", dir)
	} else {
		c.t.Proxy.Cut(dir)
		fmt.Fprintf(env.Stdout(), "link: %s cut (the connection stays open; the bytes are dropped)\n", dir)
	}
	return nil
}

// linkFlags reads link's flags: which way to cut or heal, and whether by
// a pause (always, when there is no proxy).
func linkFlags(flags []string, noProxy bool) (failover.Direction, bool, error) {
	dir, pause := failover.Downstream, noProxy
	for _, a := range flags {
		switch a {
		case "--both":
			dir = failover.Both
		case "--pause":
			pause = true
		default:
			return dir, false, words.Usage(linkUsage)
		}
	}
	return dir, pause, nil
}

const linkUsage = "link cut|heal [--both] [--pause]"

func pauseLink(ctx context.Context, env words.Env, c *cluster, cut bool) error {
	var err error
	if cut {
		err = failover.PauseCut(ctx, c.t.ReplicaAddr())
	} else {
		err = failover.PauseHeal(ctx, c.t.ReplicaAddr())
	}
	if err != nil {
		return words.Failf("link: %v", err)
	}
	stateOf(env).update(c, func(c *cluster) { c.paused = cut })
	fmt.Fprintf(env.Stdout(), "link: replica writes paused: %v (CLIENT PAUSE WRITE, relies on Redis internals; check the offsets)\n", cut)
	return nil
}

// crashWord is `crash primary`: SHUTDOWN NOSAVE NOW (SIGKILL if need be),
// and nothing the proxy still holds is forwarded afterwards.
func crashWord(ctx context.Context, env words.Env, args []string) error {
	if len(args) == 2 && args[1] != "primary" {
		return redlockWord(ctx, env, args)
	}
	c, _, err := clusterCommand(env, args, "primary")
	if err != nil {
		return err
	}
	if err := c.t.CrashPrimary(ctx); err != nil {
		return words.Failf("crash primary: %v", err)
	}
	fmt.Fprintf(env.Stdout(), "primary %s crashed (%s)\n", c.t.PrimaryAddr(), c.t.CrashMethod())
	return nil
}

// promoteWord is `promote replica`: REPLICAOF NO ONE. From then on, `on
// primary` means the promoted replica.
func promoteWord(ctx context.Context, env words.Env, args []string) error {
	c, paused, err := clusterCommand(env, args, "replica")
	if err != nil {
		return err
	}
	if paused && failover.PauseHeal(ctx, c.t.ReplicaAddr()) == nil {
		paused = false // after the crash: the paused write is discarded
	}
	if err := c.t.Promote(ctx); err != nil {
		return words.Failf("promote replica: %v", err)
	}
	stateOf(env).update(c, func(c *cluster) { c.promoted, c.paused = true, paused })
	recorderOf(env).Failover(time.Now())
	fmt.Fprintf(env.Stdout(), "replica %s promoted: it is the primary now\n", c.t.ReplicaAddr())
	return nil
}

// replicationWord prints both roles, the offsets and the bytes dropped.
func replicationWord(ctx context.Context, env words.Env, args []string) error {
	c, _, _, err := needCluster(env)
	if err != nil {
		return err
	}
	text := c.t.Status(ctx).String()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprint(env.Stdout(), text)
	return nil
}

// onWord is `@NAME on primary|replica CMD ...`: session NAME now talks to
// that server (and stays there), then runs CMD.
func onWord(ctx context.Context, env words.Env, args []string) error {
	name, args := env.Session(), args[1:]
	c, promoted, _, err := needCluster(env)
	if err != nil {
		return err
	}
	if len(args) < 2 || (args[0] != "primary" && args[0] != "replica") {
		return words.Usage("@NAME on primary|replica COMMAND ...")
	}
	addr, role := c.t.PrimaryAddr(), "the cluster's primary"
	switch {
	case args[0] == "replica":
		addr, role = c.t.ReplicaAddr(), "the cluster's replica"
	case promoted:
		addr, role = c.t.ReplicaAddr(), "the cluster's promoted replica"
	}
	t := env.Sessions().Target
	t.Network, t.Addr, t.Embedded, t.DB, t.Role = "tcp", addr, false, 0, role
	env.Sessions().Retarget(name, t)
	return env.Dispatch(ctx, name, args[1:])
}

// redlockWord runs the words of package redlock on this shell's nodes;
// `load --redlock` too (package redlockload).
func redlockWord(ctx context.Context, env words.Env, args []string) error {
	var err error
	if args[0] == "load" {
		err = redlockload.Word(ctx, stateOf(env).Redlock(), redlockEnv{env}, args[1:])
	} else {
		err = stateOf(env).Redlock().Run(ctx, redlockEnv{env}, args)
	}
	if u, ok := err.(redlock.UsageError); ok {
		return words.Usage(string(u))
	} else if errors.Is(err, redlockload.ErrTwoHolders) {
		return words.Status(loadFailStatus) // load --redlock's FAIL, as load's
	} else if err != nil && ctx.Err() == nil {
		return words.Failf("%v", err)
	}
	return err
}

// homeNote says which sessions moved back to the lab's own server.
func homeNote(names []string, home session.Target) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) == 1 {
		return fmt.Sprintf("; session %s is back on %s", names[0], home.Label())
	}
	return fmt.Sprintf("; sessions %s are back on %s", strings.Join(names, ", "), home.Label())
}

// redlockEnv is a word's env as Redlock's words see it (redlock.Env).
type redlockEnv struct{ words.Env }

func (e redlockEnv) Recorder() *record.Recorder { return recorderOf(e.Env) }
