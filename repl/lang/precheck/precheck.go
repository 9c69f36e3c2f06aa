package precheck

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/words"
)

// Script finds, before a script runs anything, the commands that can
// never run (a typo such as `bok alice`) and malformed expect lines, and
// reports the first as FILE:LINE:COL: problem.
func Script(f *syntax.File, name string) error {
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
	lits := words.Literals(call.Args)
	if len(lits) == 0 {
		return "" // decided at run time
	}
	name := lits[0]
	switch {
	case funcs[name]:
	case words.Classify(padded(lits, len(call.Args)), words.Lang).Kind == words.Unknown:
		return NotALabCommand(name)
	case words.Find(name) != nil && words.Find(name).Check != nil:
		args, known := argsOf(call.Args[1:])
		if err := words.Find(name).Check(args, known); err != nil {
			return err.Error()
		}
	}
	return ""
}

// argsOf is a command's arguments as far as they are known before it
// runs: a literal word's value, or, not known, its text as written ($b,
// "$@", $(...)), which says whether it may spread into several words.
func argsOf(ws []*syntax.Word) (args []string, known []bool) {
	for _, w := range ws {
		lit, ok := words.Literal(w)
		if !ok {
			var text strings.Builder
			syntax.NewPrinter().Print(&text, w)
			lit = text.String()
		}
		args, known = append(args, lit), append(known, ok)
	}
	return args, known
}

// padded is the literal words of a command line and, for the words known
// only at run time, empty ones: words.Classify counts them (`2 $cmd` repeats).
func padded(lits []string, n int) []string {
	return append(lits, make([]string, n-len(lits))...)
}
