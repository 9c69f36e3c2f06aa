package testreport

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/shellquote"
)

// Seen is a failed expectation as its line says it: the lab's line and
// the value the run saw there.
type Seen struct {
	Line int
	Got  string
}

// seenLine is "FILE:LINE:COL: expected ..., got X" where X is a value
// (quoted as Go quotes it, or a number): an expectation `--update` can
// rewrite. A verdict or a missing reply is not such a value.
var seenLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(.+):(\d+):\d+: expected .*, got ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)$`)
})

// Failures is every failed expectation of file a transcript shows, with
// the value seen.
func Failures(file, output string) []Seen {
	var out []Seen
	for _, m := range seenLine().FindAllStringSubmatch(output, -1) {
		if m[1] != file {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		got := m[3]
		if strings.HasPrefix(got, `"`) {
			got, _ = strconv.Unquote(got)
		}
		out = append(out, Seen{Line: line, Got: got})
	}
	return out
}

// Update rewrites the expect lines of src that failed, each to expect
// what was seen (OP VALUE becomes == SEEN), and returns the new source
// and the changed lines as a diff (- old, + new).
func Update(src string, seen []Seen) (string, string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(src), "")
	if err != nil {
		return src, "", err
	}
	type edit struct {
		from, to uint
		text     string
	}
	var edits []edit
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || !isExpect(call) {
			return true
		}
		for _, s := range seen {
			if int(call.Pos().Line()) == s.Line {
				args := call.Args
				last, op := args[len(args)-1], args[len(args)-2]
				if slices.Contains(operators, op.Lit()) {
					edits = append(edits, edit{op.Pos().Offset(), last.End().Offset(), "== " + shellquote.LabWord(s.Got)})
				} else {
					edits = append(edits, edit{last.Pos().Offset(), last.End().Offset(), shellquote.LabWord(s.Got)})
				}
			}
		}
		return true
	})
	slices.SortFunc(edits, func(a, b edit) int { return int(b.from) - int(a.from) })
	out := src
	for _, e := range edits {
		out = out[:e.from] + e.text + out[e.to:]
	}
	return out, diff(src, out), nil
}

// isExpect reports whether call is `expect ... OP VALUE` (or `@NAME
// expect ...`), with room for an OP and a VALUE.
func isExpect(call *syntax.CallExpr) bool {
	words := make([]string, 0, 2)
	for _, a := range call.Args[:min(2, len(call.Args))] {
		words = append(words, a.Lit())
	}
	i := slices.Index(words, "expect")
	return (i == 0 || i == 1 && strings.HasPrefix(words[0], "@")) && len(call.Args) >= i+3
}

// operators are expect's comparisons (an unquoted word: a quoted '>='
// reads as such too, since Lit is empty for it and it is then left alone).
var operators = []string{"==", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"}

// diff is the lines that changed between a and b, as - and + lines with
// their line numbers.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var d strings.Builder
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			fmt.Fprintf(&d, "-%d: %s\n+%d: %s\n", i+1, al[i], i+1, bl[i])
		}
	}
	return d.String()
}
