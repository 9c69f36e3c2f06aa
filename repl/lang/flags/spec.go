package flags

import (
	"strings"
	"time"
)

// Kind is what a flag's (or a positional argument's) value is.
type Kind int

const (
	Bool     Kind = iota // a switch: --json
	String               // any word: --key K
	Int                  // a whole number, Min or more: --seats N
	Duration             // a DUR with its unit (package duration): --work 300ms
	Enum                 // one of Choices: --release get-del|eval|blind
	Float                // a number, 0 or more: --drift 0.01
)

// Flag is one --flag of a word.
type Flag struct {
	Name    string // without its dashes: "work"
	Kind    Kind
	Value   string // its value's placeholder in the usage line (KEY, N, DUR); by kind when ""
	Default string // as a user would type it ("300ms"); "" for none (false, "", 0)
	Help    string // one line, for help WORD
	Choices []string
	// Min is the least an Int may be (Int), or a Duration (MinDur; a
	// Duration is never negative).
	Min    int64
	MinDur time.Duration
	// Hidden flags are read but not shown in the usage line.
	Hidden bool
	// Required flags must be given (load --redlock N: the form's key).
	Required bool
}

// Arg is a positional argument.
type Arg struct {
	Name     string // BIDDER, KEY, FILE.lab
	Kind     Kind   // String unless told (Duration: pause SESSION DUR)
	Min      int64  // the least an Int may be
	Optional bool   // [KEY]
	Many     bool   // the rest of the words: [ARG ...]
}

// Spec is a word's arguments: what it takes, its usage line, its check
// and its completion.
type Spec struct {
	Name  string // the word ("book"); a subcommand's is "redlock up"
	Args  []Arg
	Flags []Flag
	// Subs are the word's subcommands (redlock up|down|...): its first
	// argument picks one, which reads the rest.
	Subs []*Spec
	// Forms are other forms of the word, each chosen when its first flag
	// is given (load --redlock N ...).
	Forms []*Spec
	// FlagsFirst shows the flags before the positional arguments in the
	// usage line (explore [--flags] FILE.lab [ARG ...]).
	FlagsFirst bool
	// Summary is a subcommand's one line, for help WORD.
	Summary string
}

// Usage is the word's usage line: book BIDDER [--slot KEY] [--seats N].
func (s *Spec) Usage() string {
	if len(s.Subs) > 0 {
		var subs []string
		for i, sub := range s.Subs {
			u := sub.Usage()
			if i > 0 {
				u = strings.TrimPrefix(u, s.Name+" ")
			}
			subs = append(subs, u)
		}
		return strings.Join(subs, " | ")
	}
	parts := []string{s.Name}
	if s.FlagsFirst {
		parts = append(append(parts, s.flagWords()...), s.argWords()...)
	} else {
		parts = append(append(parts, s.argWords()...), s.flagWords()...)
	}
	line := strings.Join(parts, " ")
	for _, f := range s.Forms {
		line += " | " + f.Usage()
	}
	return line
}

func (s *Spec) argWords() []string {
	var out []string
	for _, a := range s.Args {
		w := a.Name
		if a.Many {
			w += " ..."
		}
		if a.Optional {
			w = "[" + w + "]"
		}
		out = append(out, w)
	}
	return out
}

func (s *Spec) flagWords() []string {
	var out []string
	for _, f := range s.Flags {
		switch {
		case f.Hidden:
		case f.Required:
			out = append(out, f.synopsis())
		default:
			out = append(out, "["+f.synopsis()+"]")
		}
	}
	return out
}

// synopsis is --name VALUE, or --name for a switch.
func (f *Flag) synopsis() string {
	if f.Kind == Bool {
		return "--" + f.Name
	}
	return "--" + f.Name + " " + f.placeholder()
}

func (f *Flag) placeholder() string {
	switch {
	case f.Value != "":
		return f.Value
	case f.Kind == Enum:
		return strings.Join(f.Choices, "|")
	case f.Kind == Int:
		return "N"
	case f.Kind == Duration:
		return "DUR"
	case f.Kind == Float:
		return "F"
	}
	return strings.ToUpper(f.Name)
}

// Help is the word's help: its usage line, then a line per flag with its
// default, and its subcommands' summaries.
func (s *Spec) Help(summary string) string {
	var b strings.Builder
	b.WriteString("  " + s.Usage() + "\n  summary: " + summary + "\n")
	s.writeFlags(&b)
	for _, sub := range s.Subs {
		if sub.Summary != "" || len(sub.Flags) > 0 {
			b.WriteString("  " + sub.Usage() + "\n")
			if sub.Summary != "" {
				b.WriteString("      " + sub.Summary + "\n")
			}
			sub.writeFlags(&b)
		}
	}
	for _, form := range s.Forms {
		b.WriteString("  " + form.Usage() + "\n")
		form.writeFlags(&b)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (s *Spec) writeFlags(b *strings.Builder) {
	for _, f := range s.Flags {
		if f.Hidden {
			continue
		}
		line := "    " + f.synopsis()
		line += strings.Repeat(" ", max(2, 28-len(line))) + f.Help
		if f.Default != "" {
			line += " (default " + f.Default + ")"
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// Flag is the flag called name ("work"), or nil.
func (s *Spec) Flag(name string) *Flag {
	for i := range s.Flags {
		if s.Flags[i].Name == name {
			return &s.Flags[i]
		}
	}
	return nil
}

// Sub is the subcommand called name, or nil.
func (s *Spec) Sub(name string) *Spec {
	for _, sub := range s.Subs {
		if sub.Name == s.Name+" "+name {
			return sub
		}
	}
	return nil
}

// subNames are the subcommands' own words: up, down, status ...
func (s *Spec) subNames() []string {
	var out []string
	for _, sub := range s.Subs {
		out = append(out, strings.TrimPrefix(sub.Name, s.Name+" "))
	}
	return out
}

// form is the form of the word args choose: the first of Forms whose
// first flag they give, else s.
func (s *Spec) form(args []string) *Spec {
	for _, f := range s.Forms {
		key := "--" + f.Flags[0].Name
		for _, a := range args {
			if a == "--" {
				break
			}
			if a == key || strings.HasPrefix(a, key+"=") {
				return f
			}
		}
	}
	return s
}

// HelpAsked is the spec whose help a call asks for with --help, or nil:
// the word's own (book alice --help), or its subcommand's (redlock
// acquire --help). --help asks wherever the parser would read it as a
// flag: anywhere among the arguments, but not after "--" (book -- --help
// is a positional argument), and never as a flag's value, which no word
// that starts with "--" is (`--work --help` asks; `--key=--help` gives
// the key). Parse itself never reads --help: the word kernel answers it
// before the word runs.
func (s *Spec) HelpAsked(args []string) *Spec {
	if len(s.Subs) > 0 && len(args) > 0 {
		if sub := s.Sub(args[0]); sub != nil {
			return sub.HelpAsked(args[1:])
		}
	}
	for _, a := range args {
		switch a {
		case "--":
			return nil
		case HelpFlag:
			return s
		}
	}
	return nil
}

// HelpFlag is the flag that asks for a word's help.
const HelpFlag = "--help"
