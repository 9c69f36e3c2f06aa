package lab

import (
	"context"
	"fmt"

	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

var timelineSpec = &flags.Spec{Name: "timeline", Flags: []flags.Flag{
	{Name: "width", Kind: flags.Int, Min: 40, Help: "columns to draw in (the terminal's width unless told)"},
	{Name: "compact", Kind: flags.Bool, Help: "one row per command, no gaps"},
	{Name: "mermaid", Kind: flags.String, Value: "FILE", Help: "write the run to FILE as a Mermaid sequenceDiagram (at the prompt only)"},
	{Name: "svg", Kind: flags.String, Value: "FILE", Help: "write the run to FILE as an SVG swimlane (at the prompt only)"},
}}

// timelineWord is `timeline [--width N] [--compact] [--mermaid FILE]
// [--svg FILE]`: the last run, drawn, or written to a file (at the
// REPL's prompt only: a script never writes files).
func timelineWord(ctx context.Context, env words.Env, args []string) error {
	p, err := timelineSpec.Parse(args[1:])
	if err != nil {
		return err
	}
	for _, format := range []string{"mermaid", "svg"} {
		if p.Given(format) {
			return exportWord(ctx, env, format, p.String(format))
		}
	}
	width := env.Width()
	if p.Given("width") {
		width = int(p.Int("width"))
	}
	fmt.Fprint(env.Stdout(), timeline.Draw(env.Output(), Picture(ctx, env), width, p.Bool("compact")))
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
