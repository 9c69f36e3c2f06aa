package flags

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lang/duration"
)

// Parsed is a word's arguments as Parse read them.
type Parsed struct {
	// Spec is the spec that read them: the word's, its subcommand's or
	// its form's.
	Spec *Spec
	// Sub is the subcommand's own word ("up"), or "".
	Sub string
	// Args are the positional arguments, in order.
	Args   []string
	values map[string]any // by flag name: bool, string, int64, float64 or time.Duration
	given  map[string]bool
}

// Parse reads args (the words after the word's name) by the spec: the
// subcommand or form they choose, the flags and the positional arguments.
func (s *Spec) Parse(args []string) (*Parsed, error) {
	if len(s.Subs) > 0 {
		return s.parseSub(args)
	}
	s = s.form(args)
	p := &Parsed{Spec: s, values: map[string]any{}, given: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.Args = append(p.Args, args[i+1:]...)
			i = len(args)
		case isFlag(a):
			used, err := p.readFlag(args[i:])
			if err != nil {
				return nil, err
			}
			i += used - 1
		default:
			p.Args = append(p.Args, a)
		}
	}
	if err := p.checkArgs(); err != nil {
		return nil, err
	}
	return p, p.defaults()
}

func (s *Spec) parseSub(args []string) (*Parsed, error) {
	if len(args) == 0 || isFlag(args[0]) {
		return nil, s.withUsage("missing " + strings.Join(s.subNames(), "|"))
	}
	sub := s.Sub(args[0])
	if sub == nil {
		return nil, s.nearOrUsage(fmt.Sprintf("unknown subcommand %q", args[0]), args[0], s.subNames())
	}
	p, err := sub.Parse(args[1:])
	if p != nil {
		p.Sub = args[0]
	}
	return p, err
}

// isFlag says a word is a flag: --name, --name=value (not "--").
func isFlag(a string) bool { return strings.HasPrefix(a, "--") && len(a) > 2 }

// readFlag reads the flag at args[0] (and its value); it returns how many
// words it used.
func (p *Parsed) readFlag(args []string) (int, error) {
	name, value, inline := strings.Cut(args[0][2:], "=")
	f := p.Spec.Flag(name)
	switch {
	case f == nil:
		return 0, p.Spec.unknownFlag(name)
	case p.given[name]:
		return 0, p.Spec.Errorf("--%s given twice: give it once", name)
	case f.Kind == Bool && inline:
		return 0, p.Spec.Errorf("--%s is a switch: give it alone, not --%s=%s", name, name, value)
	case f.Kind == Bool:
		p.values[name], p.given[name] = true, true
		return 1, nil
	}
	used := 1
	if !inline {
		if len(args) < 2 || isFlag(args[1]) || args[1] == "--" {
			return 0, p.Spec.Errorf("--%s needs %s, got nothing", name, f.wants())
		}
		value, used = args[1], 2
	}
	if value == runTime {
		p.values[name], p.given[name] = f.zero(), true
		return used, nil
	}
	v, err := f.read(value)
	if err != nil {
		return 0, p.Spec.Errorf("%s", err)
	}
	p.values[name], p.given[name] = v, true
	return used, nil
}

// checkArgs checks the count of positional arguments, and the kind of
// those that have one.
func (p *Parsed) checkArgs() error {
	s := p.Spec
	if missing := p.missingArg(); missing != "" {
		return s.withUsage("missing " + missing)
	}
	if max := p.maxArgs(); max >= 0 && len(p.Args) > max {
		return s.withUsage(fmt.Sprintf("unexpected argument %q", p.Args[max]))
	}
	for i, a := range s.Args {
		if i < len(p.Args) && a.Kind != String && !a.Many && p.Args[i] != runTime {
			v, err := a.read(p.Args[i])
			if err != nil {
				return s.Errorf("%s", err)
			}
			p.values[a.Name] = v
		}
	}
	for _, f := range s.Flags {
		if f.Required && !p.given[f.Name] {
			return s.withUsage("missing --" + f.Name + " " + f.placeholder())
		}
	}
	return nil
}

// missingArg is the first required positional argument not given, or "".
func (p *Parsed) missingArg() string {
	required := 0
	for _, a := range p.Spec.Args {
		if !a.Optional {
			required++
		}
	}
	if len(p.Args) >= required {
		return ""
	}
	var names []string
	for _, a := range p.Spec.Args[len(p.Args):] {
		if !a.Optional {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, " ")
}

// maxArgs is how many positional arguments the spec takes, or -1 for
// any number.
func (p *Parsed) maxArgs() int {
	for _, a := range p.Spec.Args {
		if a.Many {
			return -1
		}
	}
	return len(p.Spec.Args)
}

// defaults fills the flags not given with their defaults.
func (p *Parsed) defaults() error {
	for _, f := range p.Spec.Flags {
		if p.given[f.Name] {
			continue
		}
		if f.Default == "" {
			p.values[f.Name] = f.zero()
			continue
		}
		v, err := f.read(f.Default)
		if err != nil {
			panic(fmt.Sprintf("flags: %s's --%s: its default %q: %v", p.Spec.Name, f.Name, f.Default, err))
		}
		p.values[f.Name] = v
	}
	return nil
}

func (f *Flag) zero() any {
	switch f.Kind {
	case Bool:
		return false
	case Int:
		return int64(0)
	case Duration:
		return time.Duration(0)
	case Float:
		return float64(0)
	}
	return ""
}

// wants says what value the flag needs: "a duration such as 5s or 300ms".
func (f *Flag) wants() string {
	switch f.Kind {
	case Int:
		if f.Min <= 1 {
			return fmt.Sprintf("a whole number, %d or more", f.Min)
		}
		return fmt.Sprintf("a whole number of at least %d", f.Min)
	case Duration:
		if f.MinDur > 0 {
			return fmt.Sprintf("a duration of at least %v, such as 5s or 300ms", f.MinDur)
		}
		return "a duration such as 5s or 300ms"
	case Enum:
		return "one of " + strings.Join(f.Choices, ", ")
	case Float:
		return "a number, 0 or more"
	}
	return "a value (" + f.placeholder() + ")"
}

// read reads a flag's value by its kind.
func (f *Flag) read(value string) (any, error) {
	v, err := f.readArg(value)
	var bare *duration.NoUnitError
	switch {
	case errors.As(err, &bare):
		return nil, fmt.Errorf("--%s %s: %w", f.Name, value, err)
	case err != nil:
		return nil, fmt.Errorf("--%s needs %s, got %q", f.Name, f.wants(), value)
	}
	return v, nil
}

// readArg reads a value by the flag's kind: the error is only a reason.
func (f *Flag) readArg(value string) (any, error) {
	switch f.Kind {
	case Int:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < f.Min {
			return nil, errors.New("bad")
		}
		return n, nil
	case Duration:
		return f.readDuration(value)
	case Float:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, errors.New("bad")
		}
		return x, nil
	case Enum:
		if !slices.Contains(f.Choices, value) {
			return nil, errors.New("bad")
		}
	case String:
		if value == "" {
			return nil, errors.New("empty")
		}
	}
	return value, nil
}

func (f *Flag) readDuration(value string) (any, error) {
	d, err := duration.Span(value)
	if err == nil && d < f.MinDur {
		err = errors.New("too short")
	}
	return d, err
}

// read reads a positional argument that has a kind (pause's DUR): its
// value is read by its name, as a flag's (Parsed.Duration("DUR")).
func (a Arg) read(value string) (any, error) {
	f := Flag{Name: a.Name, Kind: a.Kind, Min: a.Min}
	v, err := f.readArg(value)
	var bare *duration.NoUnitError
	switch {
	case errors.As(err, &bare):
		return nil, fmt.Errorf("%s %s: %w", a.Name, value, err)
	case err != nil:
		return nil, fmt.Errorf("%s needs %s, got %q", a.Name, f.wants(), value)
	}
	return v, nil
}

// Given says the flag was given (not its default).
func (p *Parsed) Given(name string) bool { p.flag(name); return p.given[name] }

// Bool is a switch's value.
func (p *Parsed) Bool(name string) bool { return p.flag(name).(bool) }

// String is a String or Enum flag's value.
func (p *Parsed) String(name string) string { return p.flag(name).(string) }

// Int is an Int flag's value.
func (p *Parsed) Int(name string) int64 { return p.flag(name).(int64) }

// Float is a Float flag's value.
func (p *Parsed) Float(name string) float64 { return p.flag(name).(float64) }

// Duration is a Duration flag's value.
func (p *Parsed) Duration(name string) time.Duration { return p.flag(name).(time.Duration) }

// flag is the flag's value; a name the spec lacks is the program's
// mistake, and panics.
func (p *Parsed) flag(name string) any {
	v, ok := p.values[name]
	if !ok {
		panic(fmt.Sprintf("flags: %s has no flag --%s, nor an argument %s with a kind", p.Spec.Name, name, name))
	}
	return v
}
