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
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// The failover lab's words' arguments.
var (
	clusterSpec = &flags.Spec{Name: "cluster", Subs: []*flags.Spec{
		{Name: "cluster up", Summary: "start a primary and a replica (redis-server children), a proxy in their link"},
		{Name: "cluster down", Summary: "stop them; sessions on them go back to the lab's server"},
		{Name: "cluster attach", Args: []flags.Arg{{Name: "PRIMARY_HOST:PORT"}, {Name: "REPLICA_HOST:PORT"}},
			Summary: "use servers you run (link cut --pause is their only cut)"}}}
	linkFlags = []flags.Flag{
		{Name: "both", Kind: flags.Bool, Help: "both ways, not only primary->replica"},
		{Name: "pause", Kind: flags.Bool, Help: "by CLIENT PAUSE WRITE on the replica instead of the proxy"}}
	linkSpec = &flags.Spec{Name: "link", Subs: []*flags.Spec{
		{Name: "link cut", Flags: linkFlags}, {Name: "link heal", Flags: linkFlags}}}
	crashSpec   = &flags.Spec{Name: "crash", Args: []flags.Arg{{Name: "primary|NODE"}}}
	promoteSpec = &flags.Spec{Name: "promote", Subs: []*flags.Spec{{Name: "promote replica"}}}
)

// clusterWord is `cluster up|down|attach`.
func clusterWord(ctx context.Context, env words.Env, args []string) error {
	p, err := clusterSpec.Parse(args[1:])
	if err != nil {
		return err
	}
	switch p.Sub {
	case "up":
		return clusterUp(ctx, env)
	case "attach":
		return clusterAttach(ctx, env, p.Args[0], p.Args[1])
	}
	stateOf(env).stopCluster()
	back := env.Sessions().Home()
	fmt.Fprintln(env.Stdout(), "cluster: stopped"+homeNote(back, env.Sessions().Target))
	return nil
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
// word read by spec (`crash primary`, `promote replica`).
func clusterCommand(env words.Env, spec *flags.Spec, args []string) (*cluster, bool, error) {
	if _, err := spec.Parse(args[1:]); err != nil {
		return nil, false, err
	}
	c, _, paused, err := needCluster(env)
	return c, paused, err
}

// linkWord is `link cut|heal [--both] [--pause]`: drop the replication
// stream primary->replica (or both ways) in the proxy, keeping the
// connection open; --pause uses CLIENT PAUSE WRITE on the replica instead
// (the only cut of attached servers). Any heal gives a paused replica its
// writes back.
func linkWord(ctx context.Context, env words.Env, args []string) error {
	p, err := linkSpec.Parse(args[1:])
	if err != nil {
		return err
	}
	c, _, paused, err := needCluster(env)
	if err != nil {
		return err
	}
	dir, pause := failover.Downstream, p.Bool("pause") || c.t.Proxy == nil
	if p.Bool("both") {
		dir = failover.Both
	}
	heal := p.Sub == "heal"
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
	c, _, err := clusterCommand(env, crashSpec, args)
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
	c, paused, err := clusterCommand(env, promoteSpec, args)
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

// redlockWord runs the words of package redlock on this shell's nodes.
func redlockWord(ctx context.Context, env words.Env, args []string) error {
	return redlockDone(ctx, stateOf(env).Redlock().Run(ctx, redlockEnv{env}, args))
}

// redlockLoad is `load --redlock N ...` (package redlockload), its
// arguments read.
func redlockLoad(ctx context.Context, env words.Env, p *flags.Parsed) error {
	err := redlockload.Word(ctx, stateOf(env).Redlock(), redlockEnv{env}, p)
	if errors.Is(err, redlockload.ErrTwoHolders) {
		return words.Status(loadFailStatus) // load --redlock's FAIL, as load's
	}
	return redlockDone(ctx, err)
}

// redlockDone is a Redlock word's error as the shell takes it: bad
// arguments as they are (status 2), a failure with status 1.
func redlockDone(ctx context.Context, err error) error {
	if errors.Is(err, redlock.ErrNotAcquired) {
		return words.No() // an answer: exit status 1, no failure
	}
	var usage *flags.Error
	if err != nil && ctx.Err() == nil && !errors.As(err, &usage) {
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
