package shell

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/resp"
	"github.com/locklab/locklab/repl/session"
	"github.com/locklab/locklab/repl/timeline"
)

// maxEvents bounds the commands a run keeps for its timeline.
const maxEvents = 20000

// record keeps an event and its notes for the run's timeline. Called with
// annMu held.
func (s *Shell) record(e session.Event, notes []check.Note) {
	if len(s.events) >= maxEvents {
		return
	}
	reply := strings.ReplaceAll(rawText(e.Reply), "\n", " ")
	if e.Err != nil {
		reply = "(no reply: " + e.Err.Error() + ")"
	}
	s.events = append(s.events, timeline.Event{Session: e.Session, Args: session.Redact(e.Args), Reply: reply, Nil: e.Reply.Kind == resp.Nil, Start: e.Start, End: e.End})
	for _, n := range notes {
		s.notes = append(s.notes, timeline.TimedNote{Note: n, At: e.End})
	}
}

// Timeline is the picture of the run so far.
func (s *Shell) Timeline(ctx context.Context) timeline.Timeline {
	verdict := s.findings(ctx)
	s.annMu.Lock()
	defer s.annMu.Unlock()
	return timeline.Build(s.start, s.events, s.notes, s.ann.Holdings(time.Now()), verdict)
}

// PrintTimeline draws the run's timeline on the lab's output.
func (s *Shell) PrintTimeline(ctx context.Context, width int, compact bool) {
	t := s.Timeline(ctx)
	style := timeline.Style{
		Lane:  func(lane, text string) string { return s.output.paintLane(lane, text) },
		Level: func(l check.Level, text string) string { return s.note(l, text) },
	}
	if compact {
		fmt.Fprint(s.out, timeline.Compact(t, width, style))
	} else {
		fmt.Fprint(s.out, timeline.Terminal(t, width, style))
	}
	s.writers.flush()
}

// ExportTimeline writes the run's timeline to file as "mermaid" or "svg".
// It is for locklab itself (--mermaid, --svg) and the REPL's timeline
// command: scripts write no files.
func (s *Shell) ExportTimeline(ctx context.Context, format, file string) error {
	t := s.Timeline(ctx)
	text := timeline.Mermaid(t)
	if format == "svg" {
		text = timeline.SVG(t)
	}
	return os.WriteFile(file, []byte(text), 0o644)
}

// timelineWord is `timeline [--width N] [--compact] [--mermaid FILE]
// [--svg FILE]`: the last run, drawn, or written to a file (at the
// REPL's prompt only: a script never writes files).
func (s *Shell) timelineWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	width, compact := s.cfg.Width(), false
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "--compact":
			compact = true
		case (args[i] == "--mermaid" || args[i] == "--svg") && i+1 < len(args):
			return s.exportWord(ctx, hc, strings.TrimPrefix(args[i], "--"), args[i+1])
		case args[i] == "--width" && i+1 < len(args):
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 40 {
				fmt.Fprintln(hc.Stderr, "locklab: timeline --width N: N is a number of columns, 40 or more")
				return interp.ExitStatus(2)
			}
			width, i = n, i+1
		default:
			fmt.Fprintf(hc.Stderr, "locklab: timeline: unknown option %q\nusage: timeline [--width N] [--compact] [--mermaid FILE] [--svg FILE]\n", args[i])
			return interp.ExitStatus(2)
		}
	}
	s.PrintTimeline(ctx, width, compact)
	return nil
}

func (s *Shell) exportWord(ctx context.Context, hc interp.HandlerContext, format, file string) error {
	if name, _ := ctx.Value(fileKey{}).(string); name != "" || !s.cfg.Interactive {
		fmt.Fprintf(hc.Stderr, "locklab: timeline --%s: scripts write no files; run `locklab --%s %s SCRIPT` instead\n", format, format, file)
		return interp.ExitStatus(1)
	}
	if ext := map[string]string{"mermaid": ".mmd", "svg": ".svg"}[format]; filepath.Ext(file) != ext {
		fmt.Fprintf(hc.Stderr, "locklab: timeline --%s: the file must end in %s\n", format, ext)
		return interp.ExitStatus(1)
	}
	if err := s.ExportTimeline(ctx, format, file); err != nil {
		fmt.Fprintln(hc.Stderr, "locklab:", err)
		return interp.ExitStatus(1)
	}
	fmt.Fprintf(hc.Stdout, "wrote the run's timeline to %s\n", file)
	return nil
}
