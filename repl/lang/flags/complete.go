package flags

import (
	"slices"
	"strings"
)

// Complete is what Tab offers for the word being typed (partial) after
// the word's arguments so far (args): a subcommand, a flag (after --), an
// Enum flag's choices after it. nil when the spec has nothing to offer
// (a positional argument: the caller offers keys).
func (s *Spec) Complete(args []string, partial string) []string {
	if len(s.Subs) > 0 {
		if len(args) == 0 {
			return withPrefix(partial, s.subNames())
		}
		if sub := s.Sub(args[0]); sub != nil {
			return sub.Complete(args[1:], partial)
		}
		return nil
	}
	if slices.Contains(args, "--") {
		return nil
	}
	if len(args) > 0 && isFlag(args[len(args)-1]) && !strings.Contains(args[len(args)-1], "=") {
		if f := s.allFlag(args[len(args)-1][2:]); f != nil && f.Kind != Bool {
			return withPrefix(partial, f.Choices)
		}
	}
	if strings.HasPrefix(partial, "-") {
		return withPrefix(partial, s.flagNames(args))
	}
	return nil
}

// allFlag is the flag called name in the spec or one of its forms.
func (s *Spec) allFlag(name string) *Flag {
	if f := s.Flag(name); f != nil {
		return f
	}
	for _, form := range s.Forms {
		if f := form.Flag(name); f != nil {
			return f
		}
	}
	return nil
}

// flagNames are the --flags not given yet in args, of the form args
// choose (all forms' when none is chosen yet).
func (s *Spec) flagNames(args []string) []string {
	specs := []*Spec{s.form(args)}
	if specs[0] == s {
		specs = append(specs, s.Forms...)
	}
	var out []string
	for _, sp := range specs {
		for _, f := range sp.Flags {
			name := "--" + f.Name
			if !f.Hidden && !slices.Contains(args, name) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func withPrefix(partial string, names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, partial) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Hint is the grey text after what was typed (args, the words after the
// word's name, the line ending in a space): the arguments still to give
// and the flags not given yet, as the usage line writes them.
func (s *Spec) Hint(args []string) string {
	if len(s.Subs) > 0 {
		if len(args) == 0 {
			return strings.TrimPrefix(s.Usage(), s.Name+" ")
		}
		if sub := s.Sub(args[0]); sub != nil {
			return sub.Hint(args[1:])
		}
		return ""
	}
	if len(args) > 0 && isFlag(args[len(args)-1]) {
		if f := s.allFlag(args[len(args)-1][2:]); f != nil && f.Kind != Bool {
			return f.placeholder()
		}
	}
	sp := s.form(args)
	positional := 0
	for i := 0; i < len(args); i++ {
		if isFlag(args[i]) {
			if f := sp.Flag(args[i][2:]); f != nil && f.Kind != Bool {
				i++
			}
			continue
		}
		positional++
	}
	var out []string
	for i, a := range sp.argWords() {
		if i >= positional || sp.Args[i].Many {
			out = append(out, a)
		}
	}
	for i, w := range sp.flagWords() {
		if !slices.Contains(args, "--"+sp.visible()[i].Name) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// visible are the flags the usage line shows, in its order.
func (s *Spec) visible() []Flag {
	var out []Flag
	for _, f := range s.Flags {
		if !f.Hidden {
			out = append(out, f)
		}
	}
	return out
}
