package lab

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/words"
)

const timelineUsage = "timeline [--width N] [--compact] [--mermaid FILE] [--svg FILE]"

// timelineWord is `timeline [--width N] [--compact] [--mermaid FILE]
// [--svg FILE]`: the last run, drawn, or written to a file (at the
// REPL's prompt only: a script never writes files).
func timelineWord(ctx context.Context, env words.Env, args []string) error {
	width, compact := env.Width(), false
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "--compact":
			compact = true
		case (args[i] == "--mermaid" || args[i] == "--svg") && i+1 < len(args):
			return exportWord(ctx, env, strings.TrimPrefix(args[i], "--"), args[i+1])
		case args[i] == "--width" && i+1 < len(args):
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 40 {
				return &words.Error{Status: 2, Msg: "timeline --width N: N is a number of columns, 40 or more"}
			}
			width, i = n, i+1
		default:
			return &words.Error{Status: 2, Msg: fmt.Sprintf("timeline: unknown option %q\nusage: %s", args[i], timelineUsage)}
		}
	}
	fmt.Fprint(env.Stdout(), timeline.Draw(env.Output(), Picture(ctx, env), width, compact))
	return nil
}

// Picture is the timeline of the run so far.
func Picture(ctx context.Context, env words.Env) timeline.Timeline {
	return recorderOf(env).Timeline(findings(ctx, env))
}

func exportWord(ctx context.Context, env words.Env, format, file string) error {
	if env.InFile() || !env.Interactive() {
		return words.Failf("timeline --%s: scripts write no files; run `locklab --%s %s SCRIPT` instead", format, format, file)
	}
	if err := timeline.Export(Picture(ctx, env), format, file); err != nil {
		return words.Failf("timeline %v", err)
	}
	fmt.Fprintf(env.Stdout(), "wrote the run's timeline to %s\n", file)
	return nil
}
