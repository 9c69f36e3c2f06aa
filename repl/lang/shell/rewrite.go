package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// rewrite is what every parsed entry or script goes through before it
// runs, besides its jobs' naming (jobs.Name): declarations as bash makes
// them, ~NAME kept from the host's users, and a frame for each function's
// depth.
func rewrite(f *syntax.File) {
	declarations(f)
	noUserHomes(f)
	framedFunctions(f)
}

// declarations turns the declaration words a POSIX parse leaves as plain
// commands (export, readonly, local, declare, typeset) into the
// declarations bash would make of them, which the interpreter runs; as
// commands it only says "unsupported builtin", and a pasted script that
// exports a variable breaks.
func declarations(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if decl := asDeclaration(st.Cmd); decl != nil {
				st.Cmd = decl
			}
		}
		return true
	})
}

// asDeclaration is call as a declaration, or nil when it is none.
func asDeclaration(cmd syntax.Command) *syntax.DeclClause {
	call, ok := cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil
	}
	switch variant := call.Args[0].Lit(); variant {
	case "export", "readonly", "local", "declare", "typeset":
		decl := &syntax.DeclClause{Variant: &syntax.Lit{ValuePos: call.Args[0].Pos(), ValueEnd: call.Args[0].End(), Value: variant}}
		for _, w := range call.Args[1:] {
			decl.Args = append(decl.Args, declAssign(w))
		}
		return decl
	}
	return nil
}

// declAssign is one word of a declaration: NAME=VALUE with VALUE kept as
// a word of its own (not split, as bash's declarations do not), or,
// when the name is not literal, the word the interpreter splits at its
// first = as it runs (declare "$x").
func declAssign(w *syntax.Word) *syntax.Assign {
	first, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return &syntax.Assign{Value: w}
	}
	name, rest, hasValue := strings.Cut(first.Value, "=")
	if !syntax.ValidName(name) {
		return &syntax.Assign{Value: w}
	}
	as := &syntax.Assign{Name: &syntax.Lit{ValuePos: first.Pos(), ValueEnd: first.Pos(), Value: name}}
	if !hasValue {
		as.Naked = len(w.Parts) == 1
		if !as.Naked {
			return &syntax.Assign{Value: w}
		}
		return as
	}
	parts := append([]syntax.WordPart{&syntax.Lit{Value: rest}}, w.Parts[1:]...)
	as.Value = &syntax.Word{Parts: parts}
	return as
}

// noUserHomes keeps a word that starts with ~NAME as it is written: the
// interpreter would look the user up on the host (its password file, its
// name service) and print the host's folder. The lab has no users; ~ and
// ~/x are $HOME's, as before.
func noUserHomes(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok && len(w.Parts) > 0 {
			if first, ok := w.Parts[0].(*syntax.Lit); ok && namesUser(first.Value) {
				name, rest, _ := strings.Cut(first.Value, "/")
				parts := []syntax.WordPart{&syntax.SglQuoted{Value: name}}
				if rest != "" || strings.Contains(first.Value, "/") {
					parts = append(parts, &syntax.Lit{Value: "/" + rest})
				}
				w.Parts = append(parts, w.Parts[1:]...)
			}
		}
		return true
	})
}

// namesUser reports whether a word's first text is ~NAME.
func namesUser(s string) bool {
	return len(s) > 1 && s[0] == '~' && s[1] != '/'
}
