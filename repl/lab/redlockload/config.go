package redlockload

import (
	"fmt"
	"strconv"
	"time"

	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lang/duration"
)

// LoadUsage is `load --redlock`'s synopsis.
const LoadUsage = "load --redlock N [--client redsync] [--iterations M] [--ttl DUR] [--work DUR] [--clock-jump EVERY] [--crash-every EVERY] [--seed S] [--key K]"

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

// defaultLoad: the work is short next to the TTL, so that without
// faults no lock runs out while held.
func defaultLoad() LoadConfig {
	return LoadConfig{Iterations: 20, TTL: time.Second, Work: 10 * time.Millisecond, Key: "lock:redlock-load", Seed: 1}
}

// parseLoad reads `load --redlock N ...`'s flags (after the word load).
func parseLoad(args []string, client redlock.Client) (LoadConfig, error) {
	cfg := defaultLoad()
	cfg.Client = client
	for i := 0; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return cfg, redlock.UsageError(LoadUsage)
		}
		if err := cfg.set(args[i], args[i+1]); err != nil {
			return cfg, fmt.Errorf("load --redlock: %s %s: %v\nusage: %s", args[i], args[i+1], err, LoadUsage)
		}
	}
	if cfg.Workers == 0 {
		return cfg, redlock.UsageError(LoadUsage)
	}
	if cfg.Workers*cfg.Iterations > maxCycles {
		return cfg, fmt.Errorf("load --redlock: %d workers × %d iterations: at most %d cycles in all", cfg.Workers, cfg.Iterations, maxCycles)
	}
	return cfg, nil
}

// maxCycles bounds a run: the verdict compares every grant with every
// other.
const maxCycles = 20000

func (c *LoadConfig) set(flag, value string) error {
	var err error
	switch flag {
	case "--redlock":
		c.Workers, err = atLeast(value, 1)
	case "--iterations":
		c.Iterations, err = atLeast(value, 1)
	case "--clock-jump":
		c.JumpEvery, err = atLeast(value, 1)
	case "--crash-every":
		c.CrashEvery, err = atLeast(value, 1)
	case "--seed":
		c.Seed, err = strconv.ParseUint(value, 10, 64)
	case "--key":
		c.Key = value
	case "--ttl", "--work":
		err = c.setDuration(flag, value)
	case "--client":
		c.Client, err = clientNamed(value)
	default:
		err = fmt.Errorf("unknown option")
	}
	return err
}

// setDuration reads a DUR (duration.Parse: a bare number is refused).
func (c *LoadConfig) setDuration(flag, value string) error {
	d, err := duration.Parse(value)
	switch {
	case err != nil:
		return err
	case flag == "--ttl" && d < 10*time.Millisecond:
		return fmt.Errorf("at least 10ms")
	case d < 0:
		return fmt.Errorf("cannot be negative")
	case flag == "--ttl":
		c.TTL = d
	default:
		c.Work = d
	}
	return nil
}

func atLeast(value string, min int) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < min {
		return 0, fmt.Errorf("a whole number of at least %d", min)
	}
	return n, nil
}

func clientNamed(name string) (redlock.Client, error) {
	switch name {
	case "redsync":
		return redlock.Redsync, nil
	case "locklab":
		return redlock.Locklab, nil
	}
	return redlock.Locklab, fmt.Errorf("redsync or locklab, not %q", name)
}
