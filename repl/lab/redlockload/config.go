package redlockload

import (
	"time"

	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lang/flags"
)

// Spec is `load --redlock N ...`'s arguments: a form of the load word,
// chosen by --redlock.
var Spec = &flags.Spec{Name: "load", Flags: []flags.Flag{
	{Name: "redlock", Kind: flags.Int, Min: 1, Required: true, Help: "N workers, each acquiring through Redlock on the nodes `redlock up` started"},
	{Name: "client", Kind: flags.Enum, Choices: []string{"locklab", "redsync"}, Help: "who runs the algorithm (default: the one `redlock up` chose)"},
	{Name: "iterations", Kind: flags.Int, Min: 1, Value: "M", Default: "20", Help: "cycles per worker"},
	{Name: "ttl", Kind: flags.Duration, MinDur: 10 * time.Millisecond, Default: "1s", Help: "the lock's TTL"},
	{Name: "work", Kind: flags.Duration, Default: "10ms", Help: "time a holder works"},
	{Name: "clock-jump", Kind: flags.Int, Min: 1, Value: "EVERY", Help: "every EVERY cycles, a random node's clock jumps past the TTL"},
	{Name: "crash-every", Kind: flags.Int, Min: 1, Value: "EVERY", Help: "every EVERY cycles, a random node crashes and restarts empty"},
	{Name: "seed", Kind: flags.Int, Value: "S", Default: "1", Help: "picks the nodes the faults hit, and the retry delays"},
	{Name: "key", Kind: flags.String, Value: "K", Default: "lock:redlock-load", Help: "the lock key"},
}}

// LoadConfig is one `load --redlock N` run: N workers, each doing
// Iterations cycles (acquire through Redlock, retrying until granted;
// work; release) on the nodes `redlock up` started, with faults every so
// many cycles (0: none).
type LoadConfig struct {
	Workers, Iterations   int
	Client                redlock.Client
	TTL, Work             time.Duration
	Key                   string
	JumpEvery, CrashEvery int    // a random node's clock jumps past the TTL / crashes and restarts empty
	Seed                  uint64 // picks the nodes the faults hit, and the retry delays
}

// configOf is the run p describes; client is the lab's when --client
// is not given.
func configOf(p *flags.Parsed, client redlock.Client) (LoadConfig, error) {
	cfg := LoadConfig{Workers: int(p.Int("redlock")), Iterations: int(p.Int("iterations")), Client: client,
		TTL: p.Duration("ttl"), Work: p.Duration("work"), Key: p.String("key"),
		JumpEvery: int(p.Int("clock-jump")), CrashEvery: int(p.Int("crash-every")), Seed: uint64(p.Int("seed"))}
	switch p.String("client") {
	case "redsync":
		cfg.Client = redlock.Redsync
	case "locklab":
		cfg.Client = redlock.Locklab
	}
	if cfg.Workers*cfg.Iterations > maxCycles {
		return cfg, p.Spec.Errorf("%d workers × %d iterations: at most %d cycles in all", cfg.Workers, cfg.Iterations, maxCycles)
	}
	return cfg, nil
}

// maxCycles bounds a run: the verdict compares every grant with every
// other.
const maxCycles = 20000
