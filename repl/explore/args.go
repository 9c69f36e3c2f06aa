package explore

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/output"
)

// Usage is the explore command's syntax.
const Usage = "explore [--no-reduce] [--preemptions K] [--random N [--seed S]] [--max-schedules N] [--max-steps N]" +
	" [--replay CHOICES] [--save OUT.lab] [--json] [--timeline] [--svg FILE] [--mermaid FILE] FILE.lab [ARG ...]"

// Command is `locklab explore` with its flags read.
type Command struct {
	Options
	File    string
	Args    []string
	Replay  []int // run this choice list again (--replay 0,1,1), with normal output
	Save    string
	JSON    bool
	Picture Picture
}

// Picture is the timeline asked for the shortest failing schedule.
type Picture struct {
	Draw         bool
	SVG, Mermaid string
}

// ParseCommand reads explore's flags; args follow the word explore.
func ParseCommand(args []string) (Command, error) {
	var c Command
	var replay string
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&c.Raw, "no-reduce", false, "")
	fs.Func("preemptions", "", func(v string) (err error) {
		c.Preempt = true
		c.Preemptions, err = nonNegative(v)
		return err
	})
	fs.IntVar(&c.Random, "random", 0, "")
	fs.Uint64Var(&c.Seed, "seed", 1, "")
	fs.IntVar(&c.Schedules, "max-schedules", 0, "")
	fs.IntVar(&c.Steps, "max-steps", 0, "")
	fs.StringVar(&replay, "replay", "", "")
	fs.StringVar(&c.Save, "save", "", "")
	fs.BoolVar(&c.JSON, "json", false, "")
	fs.BoolVar(&c.Picture.Draw, "timeline", false, "")
	fs.StringVar(&c.Picture.SVG, "svg", "", "")
	fs.StringVar(&c.Picture.Mermaid, "mermaid", "", "")
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("%v\nusage: locklab %s", err, Usage)
	}
	if fs.NArg() == 0 {
		return c, errors.New("no script to explore\nusage: locklab " + Usage)
	}
	c.File, c.Args = fs.Arg(0), fs.Args()[1:]
	if err := flagAfterFile(fs, args); err != nil {
		return c, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := c.check(replay, set); err != nil {
		return c, err
	}
	return c, c.checkFiles()
}

// checkFiles refuses, before the search, a picture's file with the wrong
// ending, and a --save onto the script itself (it would overwrite it).
func (c *Command) checkFiles() error {
	for _, export := range []struct{ format, file string }{{"svg", c.Picture.SVG}, {"mermaid", c.Picture.Mermaid}} {
		if export.file == "" {
			continue
		}
		if err := output.CheckExport(export.format, export.file); err != nil {
			return err
		}
	}
	if c.Save == "" {
		return nil
	}
	return checkSave(c.Save, c.File)
}

// checkSave refuses, before the search, a --save that could not be
// written or would overwrite the script: a symbolic link (never
// followed), a folder that does not exist, the script itself.
func checkSave(save, file string) error {
	if fi, err := os.Lstat(save); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("--save %s: a symbolic link: not followed (name the file itself)", save)
	}
	if fi, err := os.Stat(filepath.Dir(save)); err != nil || !fi.IsDir() {
		return fmt.Errorf("--save %s: no folder %s to save it in", save, filepath.Dir(save))
	}
	saveTo, err1 := os.Stat(save)
	script, err2 := os.Stat(file)
	if err1 == nil && err2 == nil && os.SameFile(saveTo, script) {
		return fmt.Errorf("--save %s: that is the script being explored: save the schedule under another name", save)
	}
	return nil
}

// check refuses flags that contradict each other or count nothing, and
// reads --replay; set names the flags given.
func (c *Command) check(replay string, set map[string]bool) error {
	switch {
	case c.Schedules < 0 || c.Steps < 0:
		return errors.New("--max-schedules N and --max-steps N need N > 0 (leave them out for the defaults)")
	case set["random"] && c.Random <= 0:
		return errors.New("--random N needs N > 0 samples")
	case c.Random > 0 && (c.Preempt || c.Raw):
		return errors.New("--random samples raw schedules on its own: leave out --preemptions and --no-reduce")
	case c.Save != "" && !strings.HasSuffix(c.Save, ".lab"):
		return fmt.Errorf("--save %s: the schedule is saved as a lab script: give a name ending in .lab", c.Save)
	}
	if !set["replay"] {
		return nil
	}
	c.Replay = []int{}
	for _, f := range strings.Split(replay, ",") {
		n, err := nonNegative(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("--replay %s: a choice list as the summary prints it (0,1,1): %v", replay, err)
		}
		c.Replay = append(c.Replay, n)
	}
	return nil
}

// flagAfterFile refuses one of explore's flags given after the script,
// where it would quietly be the script's $1 and the search would run
// without it; after `--` it is the script's.
func flagAfterFile(fs *flag.FlagSet, args []string) error {
	if slices.Contains(args[:len(args)-fs.NArg()], "--") {
		return nil
	}
	for _, a := range fs.Args()[1:] {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && fs.Lookup(name) != nil {
			return fmt.Errorf("%s comes after %s, so it would be the script's argument: put explore's flags before the script (or write -- before the script to pass it on)", a, fs.Arg(0))
		}
	}
	return nil
}

// nonNegative reads a count.
func nonNegative(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a count (0, 1, 2 ...)", v)
	}
	return n, nil
}
