package redlock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/scripts"
	"github.com/locklab/locklab/repl/lang/flags"
)

// acquireWord is `redlock acquire KEY TOKEN [--ttl DUR] [--drift F]
// [--timeout DUR]`, in the calling session's name.
func (l *Lab) acquireWord(ctx context.Context, env Env, p *flags.Parsed) error {
	o, args := Options{TTL: p.Duration("ttl"), Drift: p.Float("drift"), Timeout: p.Duration("timeout")}, p.Args
	holder, w := env.Session(), env.Stdout()
	if err := env.Sessions().WaitPaused(ctx, holder); err != nil {
		return err
	}
	via := ""
	if l.ClientNow() == Redsync {
		via = " via go-redsync/redsync"
	}
	fmt.Fprintln(w, check.Say("%s: redlock acquire %s%s (ttl %v, drift %g, per-node timeout %v)", holder, args[0], via, o.TTL, o.Drift, o.Timeout))
	a, err := l.Acquire(ctx, timing(env), holder, args[0], args[1], o)
	if a == nil {
		return err
	}
	env.Recorder().Acquired(a.Quorum())
	printAnswers(w, a.Set)
	// In milliseconds always: a Duration under 0.5ms would print "0s".
	fmt.Fprintf(w, "  elapsed %dms; validity = ttl - elapsed - drift = %.2fs\n", a.Elapsed.Round(time.Millisecond).Milliseconds(), a.Validity.Seconds())
	if a.Released != nil {
		printAnswers(w, a.Released)
	}
	fmt.Fprintln(w, "   ↳ "+a.Note(len(a.Set)))
	if err == nil && !a.Granted {
		return ErrNotAcquired
	}
	return err
}

// ErrNotAcquired is an acquisition that got no majority in time: an
// answer, not a failure (the word's exit status 1, so that a script can
// retry or give up as a client library does).
var ErrNotAcquired = errors.New("not acquired")

// Note is the attempt's conclusion, on n nodes.
func (a *Attempt) Note(n int) string {
	on := a.Nodes()
	got := fmt.Sprintf("%d/%d (%s)", len(on), n, strings.Join(on, " "))
	switch {
	case a.Granted:
		return check.Say("%s holds %s on %s, valid for %.2fs", a.Holder, a.Key, got, a.Validity.Seconds())
	case len(on) == 0:
		return fmt.Sprintf("not acquired: 0/%d, nothing to release", n)
	case len(on) == 1:
		return fmt.Sprintf("not acquired: %s, released on it", got)
	case len(on) == 2:
		return fmt.Sprintf("not acquired: %s, released on both", got)
	}
	return fmt.Sprintf("not acquired: %s, validity %.2fs, released on all %d", got, a.Validity.Seconds(), len(on))
}

// printAnswers prints each node's command and answer.
func printAnswers(w io.Writer, answers []Answer) {
	for _, a := range answers {
		cmd := quorum.ShortCommand(a.Args)
		if scripts.Release.RunBy(a.Args) {
			cmd = "EVAL <compare-and-delete> " + quorum.ShortCommand(a.Args[2:])
		}
		fmt.Fprintln(w, check.Say("  %s  %s -> %s", a.Node, cmd, a.Text()))
	}
}

func (l *Lab) releaseWord(ctx context.Context, env Env, key, token string) error {
	if err := env.Sessions().WaitPaused(ctx, env.Session()); err != nil {
		return err
	}
	answers, rel, err := l.Release(ctx, timing(env), env.Session(), key, token, Defaults)
	if answers == nil {
		return err
	}
	env.Recorder().Released(rel)
	fmt.Fprintln(env.Stdout(), check.Say("%s: redlock release %s", env.Session(), key))
	printAnswers(env.Stdout(), answers)
	var on []string
	for _, a := range answers {
		if a.Err == nil && a.Reply.Kind == resp.Int && a.Reply.Int == 1 {
			on = append(on, a.Node)
		}
	}
	n, _ := l.targets()
	fmt.Fprintln(env.Stdout(), check.Say("   ↳ released %s on %d/%d (%s)", key, len(on), len(n), strings.Join(on, " ")))
	return err
}

// printVerdict prints, for the current nodes, the run's TWO HOLDERS and
// OVERLAP findings (the record's, which the run's verdict lists too), or
// all clear.
func (l *Lab) printVerdict(w io.Writer, rec *record.Recorder) {
	found, grants := rec.Redlock(l.Gen())
	for _, f := range found {
		fmt.Fprintln(w, "redlock verdict: "+f.Text)
	}
	switch {
	case len(found) > 0:
	case grants == 0:
		fmt.Fprintln(w, "redlock verdict: nothing granted yet")
	default:
		fmt.Fprintf(w, "redlock verdict: all clear: %d grant(s), never two holders at once\n", grants)
	}
}
