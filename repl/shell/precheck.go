package shell

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// precheck finds, before a script runs anything, the commands that can
// never run (a typo such as `bok alice`) and malformed expect lines, and
// reports the first as FILE:LINE:COL: problem.
func (s *Shell) precheck(f *syntax.File, name string) error {
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			funcs[fd.Name.Value] = true
		}
		return true
	})
	var problem error
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		call, isCall := stmtCall(st)
		if !ok || !isCall || problem != nil {
			return problem == nil
		}
		if w := call.Args[0]; w.Lit() == "expect" && len(st.Redirs) > 0 {
			problem = syntax.ParseError{Filename: name, Pos: st.Redirs[0].Pos(),
				Text: "expect: an unquoted < or > is a redirection: quote the operator ('>=') or write -ge, -gt, -le, -lt"}
		} else if msg := checkCall(call, funcs); msg != "" {
			problem = syntax.ParseError{Filename: name, Pos: call.Args[0].Pos(), Text: msg}
		}
		return problem == nil
	})
	return problem
}

func stmtCall(st *syntax.Stmt) (*syntax.CallExpr, bool) {
	if st == nil {
		return nil, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	return call, ok && len(call.Args) > 0
}

// checkCall says what is wrong with a command whose words are literal.
func checkCall(call *syntax.CallExpr, funcs map[string]bool) string {
	words := literals(call.Args)
	if len(words) == 0 {
		return "" // decided at run time
	}
	name := words[0]
	switch {
	case name == "expect" && len(words) == len(call.Args):
		if _, err := parseExpect(words[1:]); err != nil {
			return err.Error()
		}
	case known(name, funcs):
	default:
		return fmt.Sprintf("%s: not a lab command%s", name, nearest(name))
	}
	return ""
}

// known reports whether a command word can run in the lab.
func known(name string, funcs map[string]bool) bool {
	return funcs[name] || wordIndex[name] != nil || interp.IsBuiltin(name) || isRedisCommand(name) ||
		strings.Contains(name, "/") || strings.HasPrefix(name, "@") || isCount(name) ||
		name == "quit" || name == "source" || name == "."
}

// nearest suggests the lab word or macro closest to a typo.
func nearest(word string) string {
	best, bestDist := "", 3
	for name := range wordIndex {
		if strings.HasPrefix(name, "\x00") {
			continue
		}
		if d := distance(word, name); d < bestDist {
			best, bestDist = name, d
		}
	}
	if best == "" {
		return " (host programs never run here; help lists what does)"
	}
	return fmt.Sprintf(" (did you mean %s? host programs never run here)", best)
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

// verdictWord prints the verdict on the run so far.
func (s *Shell) verdictWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(s.Verdict(ctx)) == 0 {
		fmt.Fprintln(hc.Stdout, "verdict: nothing yet: no lock or booking in this run")
	}
	return nil
}
