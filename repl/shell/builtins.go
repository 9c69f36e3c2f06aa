package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/clock"
)

// sleep is sh's sleep: seconds, fractions allowed, with an optional s, m,
// h or d suffix; several arguments add up. Ctrl-C cuts it short.
func (s *Shell) sleep(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) < 2 {
		fmt.Fprintln(hc.Stderr, "sleep: missing operand (e.g. sleep 0.3)")
		return interp.ExitStatus(1)
	}
	var total time.Duration
	for _, a := range args[1:] {
		d, err := parseSleep(a)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "sleep: invalid time interval '%s'\n", a)
			return interp.ExitStatus(1)
		}
		total += d
	}
	return clock.Real{}.Sleep(ctx, total)
}

func parseSleep(arg string) (time.Duration, error) {
	unit := time.Second
	switch {
	case strings.HasSuffix(arg, "s"):
		arg = strings.TrimSuffix(arg, "s")
	case strings.HasSuffix(arg, "m"):
		arg, unit = strings.TrimSuffix(arg, "m"), time.Minute
	case strings.HasSuffix(arg, "h"):
		arg, unit = strings.TrimSuffix(arg, "h"), time.Hour
	case strings.HasSuffix(arg, "d"):
		arg, unit = strings.TrimSuffix(arg, "d"), 24*time.Hour
	}
	n, err := strconv.ParseFloat(arg, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid interval %q", arg)
	}
	return time.Duration(n * float64(unit)), nil
}

// clear clears the screen, as redis-cli's clear does.
func (s *Shell) clear(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if s.ttyFor(hc.Stdout, 0) {
		fmt.Fprint(hc.Stdout, "\x1b[H\x1b[2J")
	}
	return nil
}
