package flags

import (
	"strconv"
	"strings"
)

// Check says, before a script runs, what is wrong with a call's
// arguments: known[i] says whether args[i] is a literal word or known
// only at run time (then args[i] is its text as written: $b, "$@"). A
// word known only at run time counts as one word, which may be anything:
// a positional argument, or the value of the flag before it (never
// checked). So `book-locked $b --slot K` is refused for its missing
// TOKEN, as it would be at run time. A word that spreads into any number
// of words ("$@", $*, ${a[@]}) leaves the count unchecked.
func (s *Spec) Check(args []string, known []bool) error {
	if len(s.Subs) > 0 && len(args) > 0 {
		if !known[0] {
			return nil // the subcommand is known only at run time
		}
		if sub := s.Sub(args[0]); sub != nil {
			return sub.Check(args[1:], known[1:])
		}
	}
	marked, spread := make([]string, len(args)), false
	for i, a := range args {
		marked[i] = a
		if !known[i] {
			marked[i], spread = runTime, spread || spreads(a)
		}
	}
	if spread {
		return s.checkFlags(marked)
	}
	_, err := s.Parse(marked)
	if e, ok := err.(*Error); ok {
		e.Problem = strings.ReplaceAll(e.Problem, strconv.Quote(runTime), "(a word known only at run time)")
	}
	return err
}

// spreads says a word's text may expand to any number of words.
func spreads(text string) bool {
	return strings.Contains(text, "$@") || strings.Contains(text, "$*") || strings.Contains(text, "@}") ||
		strings.Contains(text, "*}") || strings.Contains(text, "@]") || strings.Contains(text, "*]")
}

// checkFlags checks the flags among args (their names, and values) and
// not the count of positional arguments.
func (s *Spec) checkFlags(args []string) error {
	s = s.form(args)
	p := &Parsed{Spec: s, values: map[string]any{}, given: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return nil
		}
		if isFlag(args[i]) {
			used, err := p.readFlag(args[i:])
			if err != nil {
				return err
			}
			i += used - 1
		}
	}
	return nil
}

// runTime stands for a word known only at run time: no word a script
// can write holds a NUL byte.
const runTime = "\x00"
