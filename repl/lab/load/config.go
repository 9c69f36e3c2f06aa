package load

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lang/duration"
)

// Usage is the command's synopsis, as the REPL's help and errors print it.
const Usage = "load [--workers N] [--iterations M] [--mode break|fix|extend|fenced] [--ttl DUR] [--work DUR] [--jitter DUR] [--pause DUR --pause-every N] [--key K] [--locks L] [--json]"

// The modes, as --mode spells them.
const (
	ModeBreak  = "break"  // plain DEL release
	ModeFix    = "fix"    // Lua compare-and-delete release
	ModeExtend = "extend" // compare-and-delete, plus a compare-and-PEXPIRE watchdog
	ModeFenced = "fenced" // compare-and-delete, plus a fencing token checked by the write
)

// Modes lists the modes in the lesson's order.
var Modes = []string{ModeBreak, ModeFix, ModeExtend, ModeFenced}

// Limits that keep a typo from starting a million goroutines.
const (
	MaxWorkers    = 10000
	MaxIterations = 1000000
)

// Config is one load run.
type Config struct {
	Workers, Iterations int           // default 10, 20
	Mode                string        // break | fix | extend | fenced; default fix
	TTL, Work, Jitter   time.Duration // defaults 200ms, 300ms, 0
	Pause               time.Duration // --pause: freeze a whole worker (watchdog included) for this long...
	PauseEvery          int           // ...every N-th iteration (0: never)
	Key                 string        // the lock key; default "lock:load"; other keys derive from it: KEY:resource, KEY:inside, KEY:fence, KEY:fence:last
	Locks               int           // --locks: how many locks the workers share out (default 1); worker w takes lock (w-1) mod Locks, KEY:1 ... KEY:Locks when more than one
	// OwnServer says the server is the lab's own, fresh for this run of
	// locklab (the embedded one): nothing on it can be someone else's, so
	// the keys are deleted without the check that refuses, on any other
	// server, keys that hold data the lab did not write.
	OwnServer bool
}

// DefaultConfig is what load runs with no flags: work (300ms) outlasts
// the TTL (200ms), so the lesson's bugs show.
func DefaultConfig() Config {
	return Config{Workers: 10, Iterations: 20, Mode: ModeFix, TTL: 200 * time.Millisecond,
		Work: 300 * time.Millisecond, Key: "lock:load", Locks: 1}
}

// normalized fills the fields whose zero value means nothing (Workers,
// Iterations, Mode, TTL, Key, Locks) with their defaults and checks the
// rest.
// Work, Jitter and Pause keep zero: no work is a valid run (the benchmark's).
func (c Config) normalized() (Config, error) {
	d := DefaultConfig()
	if c.Workers == 0 {
		c.Workers = d.Workers
	}
	if c.Iterations == 0 {
		c.Iterations = d.Iterations
	}
	if c.Mode == "" {
		c.Mode = d.Mode
	}
	if c.TTL == 0 {
		c.TTL = d.TTL
	}
	if c.Key == "" {
		c.Key = d.Key
	}
	if c.Locks == 0 {
		c.Locks = d.Locks
	}
	switch {
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return c, fmt.Errorf("--workers must be between 1 and %d, not %d", MaxWorkers, c.Workers)
	case c.Iterations < 1 || c.Iterations > MaxIterations:
		return c, fmt.Errorf("--iterations must be between 1 and %d, not %d", MaxIterations, c.Iterations)
	case !validMode(c.Mode):
		return c, fmt.Errorf("--mode must be break, fix, extend or fenced, not %q", c.Mode)
	case c.TTL < time.Millisecond:
		return c, fmt.Errorf("--ttl must be at least 1ms (PX counts milliseconds), not %v", c.TTL)
	case c.Work < 0 || c.Jitter < 0 || c.Pause < 0:
		return c, errors.New("--work, --jitter and --pause cannot be negative")
	case c.Locks < 1 || c.Locks > c.Workers:
		return c, fmt.Errorf("--locks must be between 1 and the %d workers (a lock nobody takes shows nothing), not %d", c.Workers, c.Locks)
	case c.PauseEvery < 0:
		return c, fmt.Errorf("--pause-every cannot be negative, not %d", c.PauseEvery)
	}
	return c, nil
}

func validMode(m string) bool {
	for _, x := range Modes {
		if m == x {
			return true
		}
	}
	return false
}

// ParseArgs reads load's flags, given after the word load (a leading
// "load" is skipped too). Flags take their value as the next word or after
// '=' (--workers=50). A duration is a DUR with its unit (300ms, 2s, 1.5s:
// duration.Parse; a bare number is refused). The returned Config starts from DefaultConfig;
// the bool says --json. Errors end with the usage line.
func ParseArgs(args []string) (Config, bool, error) {
	cfg := DefaultConfig()
	asJSON := false
	if len(args) > 0 && strings.EqualFold(args[0], "load") {
		args = args[1:]
	}
	set := map[string]bool{}
	for len(args) > 0 {
		flag, value, hasValue := strings.Cut(args[0], "=")
		args = args[1:]
		if flag == "--json" {
			if hasValue {
				return cfg, false, usageError("--json takes no value")
			}
			asJSON = true
			continue
		}
		if !knownFlag(flag) {
			return cfg, false, usageError(fmt.Sprintf("unknown argument %q", flag))
		}
		if !hasValue {
			if len(args) == 0 {
				return cfg, false, usageError(flag + " needs a value")
			}
			value, args = args[0], args[1:]
		}
		if set[flag] {
			return cfg, false, usageError(flag + " given twice")
		}
		set[flag] = true
		if err := cfg.set(flag, value); err != nil {
			return cfg, false, usageError(err.Error())
		}
	}
	if set["--pause"] != set["--pause-every"] {
		return cfg, false, usageError("--pause and --pause-every go together, e.g. --pause 600ms --pause-every 2")
	}
	cfg, err := cfg.normalized()
	if err != nil {
		return cfg, false, usageError(err.Error())
	}
	return cfg, asJSON, nil
}

func knownFlag(f string) bool {
	switch f {
	case "--workers", "--iterations", "--mode", "--ttl", "--work", "--jitter", "--pause", "--pause-every", "--key", "--locks":
		return true
	}
	return false
}

func (c *Config) set(flag, value string) error {
	var err error
	switch flag {
	case "--workers":
		c.Workers, err = count(flag, value, 1)
	case "--iterations":
		c.Iterations, err = count(flag, value, 1)
	case "--pause-every":
		c.PauseEvery, err = count(flag, value, 1)
	case "--locks":
		c.Locks, err = count(flag, value, 1)
	case "--mode":
		if !validMode(value) {
			return fmt.Errorf("--mode must be break, fix, extend or fenced, not %q", value)
		}
		c.Mode = value
	case "--key":
		if value == "" {
			return errors.New("--key cannot be empty")
		}
		c.Key = value
	case "--ttl":
		c.TTL, err = readDuration(flag, value)
		if err == nil && c.TTL < time.Millisecond {
			err = fmt.Errorf("--ttl must be at least 1ms, not %s", value)
		}
	case "--work":
		c.Work, err = readDuration(flag, value)
	case "--jitter":
		c.Jitter, err = readDuration(flag, value)
	case "--pause":
		c.Pause, err = readDuration(flag, value)
	}
	return err
}

func count(flag, value string, min int) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < min {
		return 0, fmt.Errorf("%s needs a whole number of at least %d, not %q", flag, min, value)
	}
	return n, nil
}

// readDuration reads a DUR (duration.Flag: 300ms, 2s, 1m30s; a bare number
// is refused), from 0 to 1h.
func readDuration(flag, value string) (time.Duration, error) {
	d, err := duration.Flag(flag, value)
	switch {
	case err != nil:
		return 0, err
	case d < 0:
		return 0, fmt.Errorf("%s cannot be negative, not %s", flag, value)
	case d > time.Hour:
		return 0, fmt.Errorf("%s must be at most 1h, not %s", flag, value)
	}
	return d, nil
}

func usageError(msg string) error {
	return fmt.Errorf("load: %s\nusage: %s", msg, Usage)
}
