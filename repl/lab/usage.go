package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/lang/duration"
	"github.com/locklab/locklab/repl/lang/words"
)

// usageSpec is what a macro's usage line says it takes: its positional
// arguments, and its options with the value each needs ("" for none).
type usageSpec struct {
	positional []string
	options    map[string]string // --name -> DUR, KEY, N, a|b|c, or ""
}

// parseUsage reads a usage line such as
// "book-locked BIDDER TOKEN [--ttl DUR] [--watchdog] [--release get-del|eval]".
func parseUsage(usage string) usageSpec {
	spec := usageSpec{options: map[string]string{}}
	fields := strings.Fields(strings.NewReplacer("[", " [ ", "]", " ] ").Replace(usage))
	for i := 1; i < len(fields); i++ {
		switch f := fields[i]; {
		case strings.HasPrefix(f, "--"):
			spec.options[f] = ""
			if i+1 < len(fields) && fields[i+1] != "]" && !strings.HasPrefix(fields[i+1], "--") {
				spec.options[f], i = fields[i+1], i+1
			}
		case f != "[" && f != "]" && len(spec.options) == 0:
			spec.positional = append(spec.positional, f)
		}
	}
	return spec
}

// checkUsage checks a macro's arguments against its usage line before
// anything runs (its words.Word.Check): known[i] says whether args[i] is
// known yet (a literal word) or only at run time ($b), which can be
// anything.
func checkUsage(w *words.Word, args []string, known []bool) error {
	spec := parseUsage(w.Usage)
	n := len(spec.positional)
	for i := 0; i < n; i++ {
		if i >= len(args) || known[i] && strings.HasPrefix(args[i], "--") {
			return usageProblem(w, fmt.Sprintf("needs %s before its options", strings.Join(spec.positional, " ")))
		}
	}
	for i := n; i < len(args); i++ {
		if !known[i] {
			continue
		}
		skip, err := checkOption(w, spec, args, known, i)
		if err != nil {
			return err
		}
		i += skip
	}
	return nil
}

// checkOption checks the option at args[i] and its value; it returns how
// many words the value took.
func checkOption(w *words.Word, spec usageSpec, args []string, known []bool, i int) (int, error) {
	name, value, inline := strings.Cut(args[i], "=")
	want, ok := spec.options[name]
	switch {
	case !strings.HasPrefix(name, "--"):
		return 0, usageProblem(w, fmt.Sprintf("unexpected argument %q", args[i]))
	case !ok:
		return 0, usageProblem(w, fmt.Sprintf("no option %s", name))
	case want == "":
		return 0, nil
	case !inline && i+1 >= len(args):
		return 0, usageProblem(w, fmt.Sprintf("%s needs a value (%s)", name, want))
	case !inline && !known[i+1]:
		return 1, nil
	case !inline:
		value = args[i+1]
	}
	if err := checkValue(want, value); err != nil {
		return 0, usageProblem(w, fmt.Sprintf("%s %s: %v", name, value, err))
	}
	return map[bool]int{true: 0, false: 1}[inline], nil
}

// checkValue checks an option's value against its placeholder.
func checkValue(want, value string) error {
	switch {
	case want == "DUR":
		_, err := duration.Span(value)
		return err
	case want == "N": // the macros count seats with it: none or fewer make no sense
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return fmt.Errorf("want a whole number, 1 or more")
		}
	case strings.Contains(want, "|") && !slices.Contains(strings.Split(want, "|"), value):
		return fmt.Errorf("want one of %s", want)
	}
	return nil
}

func usageProblem(w *words.Word, problem string) error {
	return fmt.Errorf("%s: %s\nusage: %s", w.Name, problem, w.Usage)
}
