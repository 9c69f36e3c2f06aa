package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/labfs"
	"github.com/locklab/locklab/repl/lang/shell"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// isExplore reports whether the command line is `locklab explore ...`.
func isExplore(o Options) bool {
	return !o.HasLine && len(o.Args) >= 1 && o.Args[0] == "explore"
}

// runExplore is `locklab explore ...`: Ctrl-C, or SIGTERM (`timeout 60
// locklab explore ...`), SIGHUP or SIGQUIT (Ctrl-\, which would dump every
// goroutine), stops the search and reports what ran; after any but
// Ctrl-C locklab then ends by it. A signal locklab was started with
// ignored stays ignored.
func runExplore(o Options, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	for _, sig := range append([]os.Signal{os.Interrupt}, endSignals...) {
		if !signal.Ignored(sig) {
			signal.Notify(sigs, sig)
		}
	}
	defer signal.Stop(sigs)
	go func() { cancel(stopSignal{<-sigs}) }()
	status := exploreArgs(ctx, o, shell.ExploreCall{Args: o.Args[1:], MayWrite: true, Stdout: stdout, Stderr: stderr})
	if stop, ok := context.Cause(ctx).(stopSignal); ok && stop.sig != os.Interrupt {
		dieBy(stop.sig.(syscall.Signal))
	}
	return status
}

// stopSignal is the signal that stopped a search.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string { return s.sig.String() }

// stoppedBy names what stopped a search: Ctrl-C, or SIGTERM.
// signalName names the end signals as people know them.
var signalName = map[os.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT"}

func stoppedBy(ctx context.Context) string {
	if stop, ok := context.Cause(ctx).(stopSignal); ok && stop.sig != os.Interrupt {
		return signalName[stop.sig]
	}
	return "Ctrl-C"
}

// exploreArgs runs a script once per schedule on embedded Redis servers
// of its own (see package explore) and reports: 0 when no schedule
// failed, 1 when one did, 2 when the script could not be explored. The
// language's explore word runs it too: it reads the script through the
// lab's view of files (call.Read), and writes files only when a person
// typed it at the REPL (call.MayWrite): not from a script, -c or a pipe,
// where it does not even look at the host's path.
func exploreArgs(ctx context.Context, o Options, call shell.ExploreCall) int {
	stdout, stderr := call.Stdout, call.Stderr
	c, err := explore.ParseFlags(call.Args)
	if file := c.Writes(); err == nil && !call.MayWrite && file != "" {
		err = fmt.Errorf("%s: a lab writes files only where a person asks at the REPL, or on the command line (locklab explore --save ...)", file)
	}
	if err == nil {
		err = c.CheckFiles()
	}
	if err != nil {
		fmt.Fprintf(stderr, "locklab: explore: %v\n", err)
		return 2
	}
	text, err := readExploredScript(ctx, c.File, call.Read)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "locklab: explore: %s: stopped (%s) while reading it\n", c.File, stoppedBy(ctx))
		return 130
	}
	if err != nil {
		fmt.Fprintf(stderr, "locklab: explore: %v\n", err)
		return 127
	}
	c.Color = o.color
	dir, _ := os.Getwd()
	sc := explore.Script{Name: c.File, Text: text, Args: c.Args, Scripts: o.Scripts, Dir: dir}
	status, err := exploreOrReplay(ctx, c, sc, o, stdout, stderr)
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, c.File+":") { // a position names the file already
			msg = c.File + ": " + msg
		}
		fmt.Fprintf(stderr, "locklab: explore: %s\n", msg)
		return 2
	}
	return status
}

// readExploredScript reads the script to explore: through the lab's view
// when the language asked (read), else as named on the command line.
func readExploredScript(ctx context.Context, path string, read func(string) ([]byte, error)) ([]byte, error) {
	if read != nil {
		return read(path)
	}
	text, err := labfs.ReadNamed(ctx, path)
	if err != nil && ctx.Err() == nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", path, err)
		}
	}
	return text, err
}

// exploreOrReplay runs the search (or the one schedule --replay names)
// and prints it as asked.
func exploreOrReplay(ctx context.Context, c explore.Command, sc explore.Script, o Options, stdout, stderr io.Writer) (int, error) {
	draw := 0
	if c.Picture.Draw || o.Timeline {
		draw = terminalWidth(stdout)
	}
	if c.Replay > 0 || c.Choices != nil {
		s, err := replayOne(ctx, c, sc, draw)
		if err != nil {
			return 0, err
		}
		fmt.Fprint(stdout, s.Transcript)
		if err := saveSchedule(c.Save, "the schedule", sc, s, stderr); err != nil {
			return 0, err
		}
		return failedStatus(s.Failed), exportPicture(c.Picture, s, stderr)
	}
	r, err := explore.Explore(ctx, sc, c.Options)
	if err != nil && r == nil {
		return 0, err
	}
	switch {
	case c.JSON && ctx.Err() != nil:
		return 130, r.WriteJSON(stdout, sc)
	case ctx.Err() != nil:
		r.Stopped(stdout, sc, stoppedBy(ctx))
		return 130, nil
	case c.JSON:
		return failedStatus(r.Failed()), r.WriteJSON(stdout, sc)
	}
	return report(ctx, c, sc, r, draw, stdout, stderr)
}

// report prints the search and the shortest failing schedule's run, and
// saves and draws that schedule as asked. Ctrl-C during its replay ends
// it with what was printed (status 130).
func report(ctx context.Context, c explore.Command, sc explore.Script, r *explore.Result, draw int, stdout, stderr io.Writer) (int, error) {
	s, err := r.Report(ctx, stdout, sc, draw)
	if ctx.Err() != nil {
		return 130, nil
	}
	if err == nil && s == nil {
		for _, file := range []string{c.Save, c.Picture.SVG, c.Picture.Mermaid} {
			if file != "" {
				fmt.Fprintf(stderr, "locklab: explore: nothing written to %s: no schedule failed\n", file)
			}
		}
	}
	if err != nil || s == nil {
		return failedStatus(r.Failed()), err
	}
	if err := saveSchedule(c.Save, "the shortest failing schedule", sc, s, stderr); err != nil {
		return 0, err
	}
	return 1, exportPicture(c.Picture, s, stderr)
}

// saveSchedule writes s (what) to file as a lab script, when file is
// given, and says how to run it.
func saveSchedule(file, what string, sc explore.Script, s *explore.Schedule, stderr io.Writer) error {
	if file == "" {
		return nil
	}
	if err := explore.Save(file, sc, s); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "locklab: wrote %s to %s (run it on any server: locklab -p PORT %s)\n", what, file, shellquote.Line(append([]string{file}, sc.Args...)...))
	return nil
}

// replayOne runs the one schedule --replay or --choices names.
func replayOne(ctx context.Context, c explore.Command, sc explore.Script, draw int) (*explore.Schedule, error) {
	if c.Choices != nil {
		return explore.Replay(ctx, sc, c.Options, c.Choices, draw)
	}
	return explore.ReplayNumber(ctx, sc, c.Options, c.Replay, draw)
}

// exportPicture writes the schedule's timeline to the --svg and
// --mermaid files.
func exportPicture(p explore.Picture, s *explore.Schedule, stderr io.Writer) error {
	for _, export := range []struct{ file, format string }{{p.Mermaid, "mermaid"}, {p.SVG, "svg"}} {
		if export.file == "" {
			continue
		}
		if err := timeline.Export(s.Timeline, export.format, export.file); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "locklab: wrote the schedule's timeline to %s\n", export.file)
	}
	return nil
}

// failedStatus is explore's exit status: 1 when a schedule failed.
func failedStatus(failed bool) int {
	if failed {
		return 1
	}
	return 0
}
