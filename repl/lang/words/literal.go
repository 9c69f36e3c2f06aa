package words

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Literal is a word's value if it has no expansion of any kind: what it
// will be before it runs.
func Literal(w *syntax.Word) (string, bool) {
	plain := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob, *syntax.BraceExp:
			plain = false
		case *syntax.Lit:
			if strings.ContainsAny(n.Value, "{~") {
				plain = false // brace or tilde expansion: leave it to the interpreter
			}
		}
		return plain
	})
	if !plain {
		return "", false
	}
	s, err := expand.Literal(&expand.Config{}, w)
	return s, err == nil
}

// Literals are the leading words of a command line that are literal.
func Literals(ws []*syntax.Word) []string {
	var out []string
	for _, w := range ws {
		lit, ok := Literal(w)
		if !ok {
			break
		}
		out = append(out, lit)
	}
	return out
}
