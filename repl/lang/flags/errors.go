package flags

import "fmt"

// Error is a word's bad arguments, in one line: the word, the problem,
// and one hint, in parentheses: the name meant, for a typo near one
// (did you mean --work?), else the usage line. The word kernel reads it
// as a usage error (status 2).
type Error struct {
	Word, Problem string
}

func (e *Error) Error() string { return e.Word + ": " + e.Problem }

// Errorf is a problem with the arguments of the word s reads, worded as
// the parser words its own (book: ..., with the usage line as its hint):
// for the checks a word makes once its flags are read (--locks more than
// --workers).
func (s *Spec) Errorf(format string, a ...any) error {
	return s.withUsage(fmt.Sprintf(format, a...))
}

// withUsage is a problem with the usage line as its hint: every problem
// but a typo near a name (a bad value, a missing or extra argument, an
// unknown flag or subcommand nothing is near, a word's own check).
func (s *Spec) withUsage(problem string) error {
	return &Error{Word: s.Name, Problem: problem + " (usage: " + s.Usage() + ")"}
}

// unknownFlag is an unknown --name, with the nearest flag, else the
// usage line.
func (s *Spec) unknownFlag(name string) error {
	var names []string
	for _, f := range s.Flags {
		if !f.Hidden {
			names = append(names, "--"+f.Name)
		}
	}
	return s.nearOrUsage("unknown flag --"+name, "--"+name, names)
}

// nearOrUsage is a problem with a word that is none of names: its hint
// is the name nearest the word, when it is close enough to be a typo,
// else the usage line.
func (s *Spec) nearOrUsage(problem, word string, names []string) error {
	if near := Nearest(word, names); near != "" {
		return &Error{Word: s.Name, Problem: problem + " (did you mean " + near + "?)"}
	}
	return s.withUsage(problem)
}

// Nearest is the one of names closest to word, by edit distance, when it
// is close enough to be a typo (at most 2 edits, fewer for short words),
// else "".
func Nearest(word string, names []string) string {
	best, bestD := "", max(1, min(2, len(word)/3)+1)
	for _, n := range names {
		if d := distance(word, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
