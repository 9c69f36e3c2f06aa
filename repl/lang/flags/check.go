package flags

import (
	"strconv"
	"strings"
)

// Check says, before a script runs, what is wrong with a call's
// arguments: known[i] says whether args[i] is known yet (a literal word)
// or only at run time ($b). A word known only at run time counts as one
// word, which may be anything: a positional argument, or the value of
// the flag before it (never checked). So `book-locked $b --slot K` is
// refused for its missing TOKEN, as it would be at run time.
func (s *Spec) Check(args []string, known []bool) error {
	marked := make([]string, len(args))
	for i, a := range args {
		marked[i] = a
		if !known[i] {
			marked[i] = runTime
		}
	}
	if len(s.Subs) > 0 && len(marked) > 0 && marked[0] == runTime {
		return nil // the subcommand is known only at run time
	}
	_, err := s.Parse(marked)
	if e, ok := err.(*Error); ok {
		e.Problem = strings.ReplaceAll(e.Problem, strconv.Quote(runTime), "(a word known only at run time)")
	}
	return err
}

// runTime stands for a word known only at run time: no word a script
// can write holds a NUL byte.
const runTime = "\x00"
