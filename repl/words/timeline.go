package words

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/timeline"
)

const timelineUsage = "timeline [--width N] [--compact] [--mermaid FILE] [--svg FILE]"

// timelineWord is `timeline [--width N] [--compact] [--mermaid FILE]
// [--svg FILE]`: the last run, drawn, or written to a file (at the
// REPL's prompt only: a script never writes files).
func timelineWord(ctx context.Context, env Env, args []string) error {
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
				return &Error{Status: 2, Msg: "timeline --width N: N is a number of columns, 40 or more"}
			}
			width, i = n, i+1
		default:
			return &Error{Status: 2, Msg: fmt.Sprintf("timeline: unknown option %q\nusage: %s", args[i], timelineUsage)}
		}
	}
	fmt.Fprint(env.Stdout(), Draw(Picture(ctx, env), env.Output(), width, compact))
	return nil
}

// Picture is the timeline of the run so far.
func Picture(ctx context.Context, env Env) timeline.Timeline {
	return env.Recorder().Timeline(env.Findings(ctx))
}

// Draw renders a timeline for the terminal, in the output's colours.
func Draw(t timeline.Timeline, out interface {
	PaintLane(lane, text string) string
	Note(level check.Level, text string) string
}, width int, compact bool) string {
	style := timeline.Style{Lane: out.PaintLane, Level: out.Note}
	if compact {
		return timeline.Compact(t, width, style)
	}
	return timeline.Terminal(t, width, style)
}

// Export writes a timeline to file as "mermaid" (.mmd) or "svg" (.svg):
// a new file or one it replaces, never through a symbolic link.
func Export(t timeline.Timeline, format, file string) error {
	if err := CheckExport(format, file); err != nil {
		return err
	}
	text := timeline.Mermaid(t)
	if format == "svg" {
		text = timeline.SVG(t)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("--%s %s: a symbolic link: not followed (name the file itself)", format, file)
	}
	if err != nil {
		return fmt.Errorf("--%s %s: %w", format, file, errors.Unwrap(err))
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("--%s %s: %w", format, file, err)
	}
	return f.Close()
}

// CheckExport says what is wrong with a file name for a picture of
// format, before anything runs.
func CheckExport(format, file string) error {
	if ext := exportExt[format]; filepath.Ext(file) != ext {
		return fmt.Errorf("--%s %s: the file must end in %s", format, file, ext)
	}
	return nil
}

// exportExt is the file ending each picture's format needs.
var exportExt = map[string]string{"mermaid": ".mmd", "svg": ".svg"}

func exportWord(ctx context.Context, env Env, format, file string) error {
	if env.InFile() || !env.Interactive() {
		return Failf("timeline --%s: scripts write no files; run `locklab --%s %s SCRIPT` instead", format, format, file)
	}
	if err := Export(Picture(ctx, env), format, file); err != nil {
		return Failf("timeline %v", err)
	}
	fmt.Fprintf(env.Stdout(), "wrote the run's timeline to %s\n", file)
	return nil
}
