package precheck

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// Positionals is the highest $1..$9 a script or entry uses outside its
// functions: a lesson
// script run without its argument books "" (`./book_no_lock.sh` alone).
func Positionals(node syntax.Node) int {
	most := 0
	syntax.Walk(node, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.FuncDecl); ok {
			return false // a function's $1 is its own argument
		}
		if pe, ok := n.(*syntax.ParamExp); ok && len(pe.Param.Value) == 1 && pe.Param.Value >= "1" && pe.Param.Value <= "9" {
			most = max(most, int(pe.Param.Value[0]-'0'))
		}
		return true
	})
	return most
}

// MissingArgs warns that what runs uses $N with fewer arguments given.
func MissingArgs(what string, uses, given int) string {
	return fmt.Sprintf("locklab: %s uses $%d but was given %d argument(s): $%d is empty here (pass it: %s ARG ...)", what, uses, given, uses, what)
}
