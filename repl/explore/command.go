package explore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/labfs"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// Call is one `explore ARGS`: `locklab explore ...` on the command line,
// or the language's explore word.
type Call struct {
	Args     []string
	MayWrite bool                              // --save, --svg and --mermaid may write (the command line, or a person at the REPL)
	Read     func(path string) ([]byte, error) // reads the script through the lab's view of files; nil: as named on the command line
	Color    bool                              // colour the transcripts
	Timeline bool                              // draw the schedule shown (locklab --timeline explore ...)
	Width    func() int                        // the terminal's width, for drawings
	Scripts  fs.FS                             // the lab's own scripts, for the explored script's `run`
	// StoppedBy names what stopped a search whose context ended (nil:
	// Ctrl-C).
	StoppedBy      func(ctx context.Context) string
	Stdout, Stderr io.Writer
}

// Run runs a script once per schedule on embedded Redis servers of its
// own and reports: 0 when no schedule failed, 1 when one did, 2 when the
// script could not be explored. From the language, it reads the script
// through the lab's view of files (call.Read), and writes files only
// when a person typed it at the REPL (call.MayWrite): not from a script,
// -c or a pipe, where it does not even look at the host's path.
func Run(ctx context.Context, call Call) int {
	stderr := call.Stderr
	if call.StoppedBy == nil {
		call.StoppedBy = func(context.Context) string { return "Ctrl-C" }
	}
	c, err := ParseFlags(call.Args)
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
		fmt.Fprintf(stderr, "locklab: explore: %s: stopped (%s) while reading it\n", c.File, call.StoppedBy(ctx))
		return 130
	}
	if err != nil {
		fmt.Fprintf(stderr, "locklab: explore: %v\n", err)
		return 127
	}
	c.Color = call.Color
	dir, _ := os.Getwd()
	sc := Script{Name: c.File, Text: text, Args: c.Args, Scripts: call.Scripts, Dir: dir}
	status, err := exploreOrReplay(ctx, c, sc, call)
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
func exploreOrReplay(ctx context.Context, c Command, sc Script, call Call) (int, error) {
	stdout, stderr := call.Stdout, call.Stderr
	draw := 0
	if c.Picture.Draw || call.Timeline {
		draw = call.Width()
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
	r, err := Explore(ctx, sc, c.Options)
	if err != nil && r == nil {
		return 0, err
	}
	switch {
	case c.JSON && ctx.Err() != nil:
		return 130, r.WriteJSON(stdout, sc)
	case ctx.Err() != nil:
		r.Stopped(stdout, sc, call.StoppedBy(ctx))
		return 130, nil
	case c.JSON:
		return failedStatus(r.Failed()), r.WriteJSON(stdout, sc)
	}
	return report(ctx, c, sc, r, draw, stdout, stderr)
}

// report prints the search and the shortest failing schedule's run, and
// saves and draws that schedule as asked. Ctrl-C during its replay ends
// it with what was printed (status 130).
func report(ctx context.Context, c Command, sc Script, r *Result, draw int, stdout, stderr io.Writer) (int, error) {
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
func saveSchedule(file, what string, sc Script, s *Schedule, stderr io.Writer) error {
	if file == "" {
		return nil
	}
	if err := Save(file, sc, s); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "locklab: wrote %s to %s (run it on any server: locklab -p PORT %s)\n", what, file, shellquote.Line(append([]string{file}, sc.Args...)...))
	return nil
}

// replayOne runs the one schedule --replay or --choices names.
func replayOne(ctx context.Context, c Command, sc Script, draw int) (*Schedule, error) {
	if c.Choices != nil {
		return Replay(ctx, sc, c.Options, c.Choices, draw)
	}
	return ReplayNumber(ctx, sc, c.Options, c.Replay, draw)
}

// exportPicture writes the schedule's timeline to the --svg and
// --mermaid files.
func exportPicture(p Picture, s *Schedule, stderr io.Writer) error {
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
