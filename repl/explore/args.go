package explore

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/flags"
)

// Spec is explore's arguments (package flags): its usage line, help,
// the check of a script's calls and completion.
var Spec = &flags.Spec{Name: "explore", FlagsFirst: true,
	Args: []flags.Arg{{Name: "FILE.lab"}, {Name: "ARG", Optional: true, Many: true}},
	Flags: []flags.Flag{
		{Name: "property", Kind: flags.String, Value: "KIND,...", Help: "what a failing schedule breaks: expect, or verdict kinds (default: any)"},
		{Name: "oracle", Kind: flags.Bool, Help: "after every step, compare what the checker believes with the server's real state"},
		{Name: "plain", Kind: flags.Bool, Help: "a new server and a fresh read of the script for every schedule (slower; to compare)"},
		{Name: "no-reduce", Kind: flags.Bool, Help: "every order, not one per class of equivalent orders"},
		{Name: "preemptions", Kind: flags.Int, Value: "K", Help: "only orders with at most K preemptions"},
		{Name: "random", Kind: flags.Int, Help: "N schedules by PCT priorities, not all of them"},
		{Name: "walk", Kind: flags.Int, Help: "N random walks, not all of them"},
		{Name: "seed", Kind: flags.Int, Value: "S", Default: "1", Help: "the seed of --random and --walk"},
		{Name: "faults", Kind: flags.Int, Value: "K", Help: "up to K faults a schedule, each at any point between steps (see --fault-kinds)"},
		{Name: "fault-kinds", Kind: flags.String, Value: "KIND,...", Help: "the faults --faults chooses among: time (a pause until the next key expires), restart (the server restarts empty), lost-reply (a write's reply never arrives); default: all"},
		{Name: "max-schedules", Kind: flags.Int, Help: "stop after N schedules"},
		{Name: "max-steps", Kind: flags.Int, Help: "stop a schedule after N steps"},
		{Name: "replay", Kind: flags.Int, Help: "run schedule number N again, with its normal output"},
		{Name: "choices", Kind: flags.String, Value: "0,1,1", Help: "run the schedule of this choice list"},
		{Name: "save", Kind: flags.String, Value: "OUT.lab", Help: "save the shortest failing schedule as a script"},
		{Name: "json", Kind: flags.Bool, Help: "the search's counts as JSON"},
		{Name: "timeline", Kind: flags.Bool, Help: "draw the shortest failing schedule"},
		{Name: "svg", Kind: flags.String, Value: "FILE", Help: "write its timeline to FILE as SVG"},
		{Name: "mermaid", Kind: flags.String, Value: "FILE", Help: "write its timeline to FILE as Mermaid"},
	}}

// Command is `locklab explore` with its flags read.
type Command struct {
	Options
	File    string
	Args    []string
	Replay  int   // run schedule number Replay of this search again (--replay 3), with normal output
	Choices []int // or the schedule of this choice list (--choices 0,1,1)
	Save    string
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
// caller that may refuse to write any first. Its errors are one line,
// without the word (its caller prints "explore: ").
func ParseFlags(args []string) (Command, error) {
	var c Command
	p, err := Spec.Parse(args)
	var bad *flags.Error
	if errors.As(err, &bad) {
		return c, errors.New(bad.Problem)
	}
	c.File, c.Args = p.Args[0], p.Args[1:]
	c.Raw, c.Random, c.Seed = p.Bool("no-reduce"), int(p.Int("random")), uint64(p.Int("seed"))
	c.Preempt, c.Preemptions = p.Given("preemptions"), int(p.Int("preemptions"))
	c.Schedules, c.Steps, c.Replay = int(p.Int("max-schedules")), int(p.Int("max-steps")), int(p.Int("replay"))
	c.Save, c.Property, c.JSON, c.Oracle = p.String("save"), p.String("property"), p.Bool("json"), p.Bool("oracle")
	c.Plain, c.Faults = p.Bool("plain"), int(p.Int("faults"))
	if p.Given("fault-kinds") {
		if c.FaultKinds, err = readFaultKinds(p.String("fault-kinds")); err != nil {
			return c, err
		}
	}
	c.Picture = Picture{Draw: p.Bool("timeline"), SVG: p.String("svg"), Mermaid: p.String("mermaid")}
	if p.Given("walk") {
		n, err := samples(p.Int("walk"))
		if err != nil {
			return c, fmt.Errorf("--walk %d: %v", p.Int("walk"), err)
		}
		if err := c.choose(sched.RandomWalk{N: n}); err != nil { // a strategy's own flag names it (see package sched)
			return c, err
		}
	}
	set := map[string]bool{}
	for _, f := range Spec.Flags {
		set[f.Name] = p.Given(f.Name)
	}
	return c, c.check(p.String("choices"), set)
}

// Writes is a file the command would write (--save, --svg, --mermaid),
// or "".
func (c Command) Writes() string {
	return cmp.Or(c.Save, c.Picture.SVG, c.Picture.Mermaid)
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
	case c.Faults < 0 || set["faults"] && c.Faults == 0:
		return errors.New("--faults K needs K > 0 faults a schedule (leave it out for none)")
	case set["fault-kinds"] && c.Faults == 0:
		return errors.New("--fault-kinds narrows the faults of --faults K: give --faults too")
	case c.Oracle && c.Faults > 0 && slices.Contains(c.kinds(), "lost-reply"):
		return errors.New("--oracle compares what the checker believes with the server, and a lost reply leaves the checker knowing what its session learnt, less than the server holds: give --fault-kinds time,restart, or leave out --oracle")
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

// samples is a random search's count: N > 0.
func samples(n int64) (int, error) {
	if n <= 0 {
		return 0, errors.New("a random search needs N > 0 samples")
	}
	return int(n), nil
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
