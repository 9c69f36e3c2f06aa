package words

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/output"
)

// sleep is sh's sleep: seconds, fractions allowed, with an optional s, m,
// h or d suffix; several arguments add up. Ctrl-C cuts it short.
func sleep(ctx context.Context, env Env, args []string) error {
	if len(args) < 2 {
		return Bare("sleep: missing operand (e.g. sleep 0.3)")
	}
	var total time.Duration
	for _, a := range args[1:] {
		d, err := parseSleep(a)
		if err != nil {
			return Bare("sleep: invalid time interval '%s'", a)
		}
		total += d
	}
	return env.Clock().Sleep(ctx, total)
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
func clear(ctx context.Context, env Env, args []string) error {
	if lw, ok := env.Stdout().(*output.LineWriter); ok && env.TTY() && !lw.Stderr() {
		fmt.Fprint(env.Stdout(), "\x1b[H\x1b[2J")
	}
	return nil
}

// runScriptWord is `run FILE ARGS`, `source FILE`, `bash FILE` or `sh FILE`.
func runScriptWord(ctx context.Context, env Env, args []string) error {
	if len(args) < 2 || args[1] == "-c" {
		return Usage(args[0] + " FILE [ARG ...]   (runs a .lab or .sh script in the lab)")
	}
	return env.RunScript(ctx, args[1], args[2:])
}
