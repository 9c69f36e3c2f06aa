package explore

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/timeline"
)

// Usage is the explore command's syntax.
const Usage = "explore [--property KIND,...] [--oracle] [--no-reduce] [--preemptions K] [--random N | --walk N [--seed S]] [--max-schedules N] [--max-steps N]" +
	" [--replay N | --choices 0,1,1] [--save OUT.lab] [--json] [--timeline] [--svg FILE] [--mermaid FILE] FILE.lab [ARG ...]"

// Command is `locklab explore` with its flags read.
type Command struct {
	Options
	File    string
	Args    []string
	Replay  int   // run schedule number Replay of this search again (--replay 3), with normal output
	Choices []int // or the schedule of this choice list (--choices 0,1,1)
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
	c, err := ParseFlags(args)
	if err != nil {
		return c, err
	}
	return c, c.CheckFiles()
}

// ParseFlags is ParseCommand without the look at the output files, for a
// caller that may refuse to write any first.
func ParseFlags(args []string) (Command, error) {
	var c Command
	var choices string
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&c.Raw, "no-reduce", false, "")
	fs.Func("preemptions", "", func(v string) (err error) {
		c.Preempt = true
		c.Preemptions, err = nonNegative(v)
		return err
	})
	fs.IntVar(&c.Random, "random", 0, "")
	fs.Func("walk", "", func(v string) error { // a strategy's own flag names it (see package sched)
		n, err := samples(v)
		if err != nil {
			return err
		}
		return c.choose(sched.RandomWalk{N: n})
	})
	fs.Uint64Var(&c.Seed, "seed", 1, "")
	fs.IntVar(&c.Schedules, "max-schedules", 0, "")
	fs.IntVar(&c.Steps, "max-steps", 0, "")
	fs.IntVar(&c.Replay, "replay", 0, "")
	fs.StringVar(&choices, "choices", "", "")
	fs.StringVar(&c.Save, "save", "", "")
	fs.StringVar(&c.Property, "property", "", "")
	fs.BoolVar(&c.Oracle, "oracle", false, "")
	fs.BoolVar(&c.JSON, "json", false, "")
	fs.BoolVar(&c.Picture.Draw, "timeline", false, "")
	fs.StringVar(&c.Picture.SVG, "svg", "", "")
	fs.StringVar(&c.Picture.Mermaid, "mermaid", "", "")
	rest, err := parseAnywhere(fs, args)
	if err != nil {
		return c, fmt.Errorf("%v\nusage: locklab %s", err, Usage)
	}
	if len(rest) == 0 {
		return c, errors.New("no script to explore\nusage: locklab " + Usage)
	}
	c.File, c.Args = rest[0], rest[1:]
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return c, c.check(choices, set)
}

// Writes is a file the command would write (--save, --svg, --mermaid),
// or "".
func (c Command) Writes() string {
	return cmp.Or(c.Save, c.Picture.SVG, c.Picture.Mermaid)
}

// parseAnywhere reads flags before and after the file and its arguments
// (explore FILE --no-reduce), as a user types them; after `--`, every
// word is the script's.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	head, tail := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		head, tail = args[:i], args[i+1:]
	}
	var rest []string
	for {
		if err := fs.Parse(head); err != nil {
			return nil, err
		}
		if head = fs.Args(); len(head) == 0 {
			return append(rest, tail...), nil
		}
		rest, head = append(rest, head[0]), head[1:]
	}
}

// CheckFiles refuses, before the search, a picture's file with the wrong
// ending, and an output that could not be written or would clobber
// something (see checkOutput).
func (c *Command) CheckFiles() error {
	for _, out := range []struct{ flag, format, file string }{
		{"--svg", "svg", c.Picture.SVG}, {"--mermaid", "mermaid", c.Picture.Mermaid}, {"--save", "", c.Save},
	} {
		if out.file == "" {
			continue
		}
		if out.format != "" {
			if err := timeline.CheckExport(out.format, out.file); err != nil {
				return err
			}
		}
		if err := checkOutput(out.flag, out.file, c.File); err != nil {
			return err
		}
	}
	return nil
}

// checkOutput refuses, before the search, an output file that could not
// be written or would overwrite the script (output.CheckWrite): a
// symbolic link (never followed), a folder, a pipe or a device, a folder
// that does not exist, the script itself.
func checkOutput(flag, out, file string) error {
	if err := output.CheckWrite(out, file); err != nil {
		return fmt.Errorf("%s %w", flag, err)
	}
	return nil
}

// check refuses flags that contradict each other or count nothing, and
// reads --choices; set names the flags given.
func (c *Command) check(choices string, set map[string]bool) error {
	switch {
	case c.Schedules < 0 || c.Steps < 0 || set["max-schedules"] && c.Schedules == 0 || set["max-steps"] && c.Steps == 0:
		return errors.New("--max-schedules N and --max-steps N need N > 0 (leave them out for the defaults)")
	case set["replay"] && c.Replay == 0:
		return errors.New("--replay 0: schedules are numbered from 1, as the report prints them (#3 is --replay 3)")
	case set["random"] && c.Random <= 0:
		return errors.New("--random N needs N > 0 samples")
	case c.Random > 0 && (c.Preempt || c.Raw):
		return errors.New("--random samples raw schedules on its own: leave out --preemptions and --no-reduce")
	case c.Strategy != nil && (c.Random > 0 || c.Preempt || c.Raw):
		return fmt.Errorf("%s chooses the search on its own: leave out --no-reduce, --preemptions and --random", flagOf(c.Strategy))
	case c.Save != "" && !strings.HasSuffix(c.Save, ".lab"):
		return fmt.Errorf("--save %s: the schedule is saved as a lab script: give a name ending in .lab", c.Save)
	case c.Replay < 0:
		return fmt.Errorf("--replay %d: a schedule's number, as the report prints it (#3 is --replay 3)", c.Replay)
	case c.Replay > 0 && choices != "":
		return errors.New("--replay N and --choices LIST both name a schedule: give one")
	case c.JSON && (c.Replay > 0 || choices != ""):
		return errors.New("--json reports a search's counts; --replay and --choices run one schedule: give one or the other")
	}
	property, err := normalProperty(c.Property)
	if err != nil {
		return err
	}
	c.Property = property
	return c.readChoices(choices, set["choices"])
}

// choose makes s the search, for the flag that names it (a strategy's
// own flag, which sets Options.Strategy); another such flag is refused,
// and the same one given again counts as the last time.
func (c *Command) choose(s sched.Strategy) error {
	if c.Strategy != nil && flagOf(c.Strategy) != flagOf(s) {
		return fmt.Errorf("%s and %s each choose the search: give one", flagOf(c.Strategy), flagOf(s))
	}
	c.Strategy = s
	return nil
}

// flagOf is the flag that names s: "--walk".
func flagOf(s sched.Strategy) string {
	name, _, _ := strings.Cut(s.Flags(), " ")
	return name
}

// samples reads a random search's count: N > 0.
func samples(v string) (int, error) {
	n, err := nonNegative(v)
	if err == nil && n == 0 {
		err = errors.New("a random search needs N > 0 samples")
	}
	return n, err
}

// readChoices reads --choices 0,1,1.
func (c *Command) readChoices(choices string, given bool) error {
	if !given {
		return nil
	}
	c.Choices = []int{}
	for _, f := range strings.Split(choices, ",") {
		n, err := nonNegative(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("--choices %s: a choice list as the report prints it (0,1,1): %v", choices, err)
		}
		c.Choices = append(c.Choices, n)
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

// properties are what --property may name: "expect" and the bug kinds.
func properties() []string {
	names := []string{"expect"}
	for _, k := range check.Kinds {
		if (check.Finding{Kind: k}).Bad() {
			names = append(names, string(k))
		}
	}
	return names
}

// normalProperty is a --property list with each kind by its own name (an
// older name taken), or an error for a word that names no property.
func normalProperty(property string) (string, error) {
	if property == "" {
		return "", nil
	}
	known, words := properties(), strings.Split(property, ",")
	for i, p := range words {
		if k, ok := check.ParseKind(p); ok {
			words[i] = string(k)
		}
		if !slices.Contains(known, words[i]) {
			return "", fmt.Errorf("--property %s: %q is none of %s", property, p, strings.Join(known, ", "))
		}
	}
	return strings.Join(words, ","), nil
}
