package flags

import (
	"fmt"
	"strings"
)

// Error is a word's bad arguments, in one line: the word, the problem,
// and what to do. The word kernel reads it as a usage error (status 2).
type Error struct {
	Word, Problem string
}

func (e *Error) Error() string { return e.Word + ": " + e.Problem }

// Errorf is a problem with the arguments of the word s reads, worded as
// the parser words its own (book: ...): for the checks a word makes once
// its flags are read (--locks more than --workers).
func (s *Spec) Errorf(format string, a ...any) error {
	return &Error{Word: s.Name, Problem: fmt.Sprintf(format, a...)}
}

// withUsage is a problem the usage line answers (a missing or extra
// argument).
func (s *Spec) withUsage(problem string) error {
	return s.Errorf("%s (usage: %s)", problem, s.Usage())
}

// unknownFlag is an unknown --name, with the nearest flag or the list.
func (s *Spec) unknownFlag(name string) error {
	var names []string
	for _, f := range s.Flags {
		if !f.Hidden {
			names = append(names, "--"+f.Name)
		}
	}
	switch near := Nearest("--"+name, names); {
	case near != "":
		return s.Errorf("unknown flag --%s (did you mean %s?)", name, near)
	case len(names) == 0:
		return s.Errorf("unknown flag --%s (%s takes no flags)", name, s.Name)
	default:
		return s.Errorf("unknown flag --%s (%s takes %s)", name, s.Name, strings.Join(names, ", "))
	}
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
