package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lang/flags"
)

// Spec is the load word's arguments (package flags): its usage line,
// help, the check of a script's calls, completion.
var Spec = &flags.Spec{Name: "load", Flags: []flags.Flag{
	{Name: "workers", Kind: flags.Int, Min: 1, Default: "10", Help: "how many workers, each on its own connection"},
	{Name: "iterations", Kind: flags.Int, Min: 1, Value: "M", Default: "20", Help: "acquire/work/release cycles per worker"},
	{Name: "mode", Kind: flags.Enum, Choices: Modes, Default: ModeFix, Help: "the release: plain DEL, compare-and-delete, plus a watchdog, plus a fencing token"},
	{Name: "ttl", Kind: flags.Duration, MinDur: time.Millisecond, Default: "200ms", Help: "the lock's TTL"},
	{Name: "work", Kind: flags.Duration, Default: "300ms", Help: "time a holder works"},
	{Name: "jitter", Kind: flags.Duration, Help: "up to this much more work, at random"},
	{Name: "pause", Kind: flags.Duration, Help: "freeze a whole worker (watchdog included) this long ..."},
	{Name: "pause-every", Kind: flags.Int, Min: 1, Help: "... every N-th iteration (with --pause)"},
	{Name: "key", Kind: flags.String, Value: "K", Default: "lock:load", Help: "the lock key; the others derive from it"},
	{Name: "locks", Kind: flags.Int, Min: 1, Value: "L", Default: "1", Help: "how many locks the workers share out"},
	{Name: "retry", Kind: flags.Enum, Choices: RetryPolicies, Default: RetryNotify, Help: "after a failed SET NX: try again in 1ms (the retry storm), back off with jitter, or wait for the release"},
	{Name: "json", Kind: flags.Bool, Help: "one line of JSON per run"},
	{Name: "modes", Kind: flags.String, Value: "break,fix,extend,fenced", Help: "run these modes one after another and compare them"},
}}

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
	Retry               string        // after a failed SET NX: fixed | backoff | notify; default notify (see retry.go)
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
		Work: 300 * time.Millisecond, Key: "lock:load", Locks: 1, Retry: RetryNotify}
}

// normalized fills the fields whose zero value means nothing (Workers,
// Iterations, Mode, TTL, Key, Locks, Retry) with their defaults and
// checks the rest.
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
	if c.Retry == "" {
		c.Retry = d.Retry
	}
	switch {
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return c, fmt.Errorf("--workers must be between 1 and %d, not %d", MaxWorkers, c.Workers)
	case c.Iterations < 1 || c.Iterations > MaxIterations:
		return c, fmt.Errorf("--iterations must be between 1 and %d, not %d", MaxIterations, c.Iterations)
	case !validMode(c.Mode):
		return c, fmt.Errorf("--mode must be break, fix, extend or fenced, not %q", c.Mode)
	case !slices.Contains(RetryPolicies, c.Retry):
		return c, fmt.Errorf("--retry must be fixed, backoff or notify, not %q", c.Retry)
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

// Call is a load word's arguments read: the run, --json, --modes.
type Call struct {
	Config
	JSON  bool
	Modes []string // --modes, one run each; nil: Config.Mode alone
}

// Parse reads load's arguments (after the word load) with Spec: the
// returned Config starts from DefaultConfig. Errors are one line
// (flags.Error).
func Parse(args []string) (Call, error) {
	p, err := Spec.Parse(args)
	if err != nil {
		return Call{}, err
	}
	cfg := Config{Workers: int(p.Int("workers")), Iterations: int(p.Int("iterations")), Mode: p.String("mode"),
		TTL: p.Duration("ttl"), Work: p.Duration("work"), Jitter: p.Duration("jitter"), Pause: p.Duration("pause"),
		PauseEvery: int(p.Int("pause-every")), Key: p.String("key"), Locks: int(p.Int("locks")), Retry: p.String("retry")}
	call := Call{JSON: p.Bool("json")}
	if p.Given("pause") != p.Given("pause-every") {
		return call, Spec.Errorf("--pause and --pause-every go together, e.g. --pause 600ms --pause-every 2")
	}
	for _, d := range []string{"work", "jitter", "pause"} {
		if p.Duration(d) > time.Hour {
			return call, Spec.Errorf("--%s must be at most 1h, not %v", d, p.Duration(d))
		}
	}
	if p.Given("modes") {
		call.Modes = strings.Split(p.String("modes"), ",")
		for _, m := range call.Modes {
			if !validMode(m) {
				return call, Spec.Errorf("--modes needs modes among %s, got %q", strings.Join(Modes, ","), m)
			}
		}
	}
	call.Config, err = cfg.normalized()
	if err != nil {
		return call, Spec.Errorf("%v", err)
	}
	return call, nil
}
