package redlockload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lang/flags"
)

// LoadStats is what a `load --redlock` run counted, from the nodes'
// answers as the checker (repl/lab/quorum) read them.
type LoadStats struct {
	Config      LoadConfig
	Nodes       int
	Kind        redlock.Kind
	Attempts    int64 // redlock acquire runs, one try each
	Sections    int64 // attempts whose client concluded it held the lock
	Grants      int64 // attempts with a majority of OKs in the answers, validity left
	TwoHolders  int64 // pairs of grants valid at once
	Jumps       int64
	Crashes     int64
	First       string   // the first TWO HOLDERS, as the verdict words it
	Missing     []string // grants the answers do not back
	Elapsed     time.Duration
	Interrupted bool
	Err         string
}

// ErrTwoHolders is a run whose verdict is FAIL: the answers show two
// holders at once.
var ErrTwoHolders = errors.New("load --redlock: TWO HOLDERS")

// Table is the run: what it was, one row per count, the verdict.
func (s LoadStats) Table() string {
	var b strings.Builder
	b.WriteString(s.heading() + "\n")
	rows := []struct {
		label string
		n     int64
		note  string
	}{
		{"attempts", s.Attempts, "redlock acquire, one try each"},
		{"acquisitions", s.Grants, "a majority of OKs in the nodes' answers"},
		{"failed attempts", s.Attempts - s.Sections, "no majority (or no validity left): released, retried"},
		{"two holders", s.TwoHolders, "pairs of grants valid at once (TWO HOLDERS)"},
		{"clock jumps", s.Jumps, fmt.Sprintf("a random node's clock jumped +%v, past the TTL", s.Config.TTL+time.Millisecond)},
		{"crashes", s.Crashes, "a random node crashed and restarted empty"},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-16s %7s   %s\n", r.label, thousands(r.n), r.note)
	}
	b.WriteString("verdict: " + s.Verdict() + "\n")
	return b.String()
}

func (s LoadStats) heading() string {
	client, kind := "locklab's steps", "embedded"
	if s.Config.Client == redlock.Redsync {
		client = "go-redsync/redsync"
	}
	if s.Kind == redlock.Real {
		kind = "redis-server"
	}
	var faults []string
	if s.Config.JumpEvery > 0 {
		faults = append(faults, fmt.Sprintf("a clock jump every %d cycles", s.Config.JumpEvery))
	}
	if s.Config.CrashEvery > 0 {
		faults = append(faults, fmt.Sprintf("a crash and empty restart every %d cycles", s.Config.CrashEvery))
	}
	if len(faults) == 0 {
		faults = []string{"no faults"}
	}
	h := fmt.Sprintf("load --redlock %d: %d workers × %d iterations on %d %s nodes (%s), ttl %v, work %v; %s (seed %d); %d sections in %s",
		s.Config.Workers, s.Config.Workers, s.Config.Iterations, s.Nodes, kind, client, s.Config.TTL, s.Config.Work,
		strings.Join(faults, ", "), s.Config.Seed, s.Sections, s.Elapsed.Round(time.Millisecond))
	if s.Interrupted {
		h += ", interrupted"
	}
	return h
}

// Verdict is the run's lesson in one line; Failed says it is FAIL.
func (s LoadStats) Verdict() string {
	switch {
	case s.Err != "":
		return "UNKNOWN: " + s.Err
	case len(s.Missing) > 0:
		return "UNKNOWN: " + s.Missing[0]
	case s.Grants == 0:
		return "nothing granted."
	case s.TwoHolders > 0:
		return fmt.Sprintf("FAIL: %s in %s grants (first: %s). A majority of nodes forgot a holder's key (a clock jump, an empty restart) and granted it again.",
			plural(s.TwoHolders, "TWO HOLDERS pair"), thousands(s.Grants), s.First)
	case s.Jumps+s.Crashes > 0:
		return fmt.Sprintf("OK: never two holders at once in %s grants, under %d clock jump(s) and %d crash(es): this run's timing, not a proof.", thousands(s.Grants), s.Jumps, s.Crashes)
	}
	return fmt.Sprintf("OK: never two holders at once in %s grants.", thousands(s.Grants))
}

// Failed reports whether the verdict is FAIL.
func (s LoadStats) Failed() bool { return s.Err == "" && len(s.Missing) == 0 && s.TwoHolders > 0 }

func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return thousands(n) + " " + thing + "s"
}

// thousands writes n with commas: 12,345.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Word is `load --redlock N ...` (its arguments read by Spec): the run,
// then its table; a FAIL is redlock.ErrTwoHolders (the word's status).
func Word(ctx context.Context, l *redlock.Lab, env redlock.Env, p *flags.Parsed) error {
	cfg, err := configOf(p, l.ClientNow())
	if err != nil {
		return err
	}
	s, err := Run(ctx, l, env.Clock(), cfg)
	if err != nil {
		return err
	}
	fmt.Fprint(env.Stdout(), s.Table())
	if s.Failed() {
		return ErrTwoHolders
	}
	return ctx.Err()
}
