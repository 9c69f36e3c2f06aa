package precheck

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/words"
)

// Servers follows a script's top-level calls in order, with the script's
// arguments in place of "$@" and $1..$9, through their words' Effects
// (words.Word.Effects): what each call makes of the servers the lab
// starts, and what it cannot run with. It reports the first call that
// cannot run with what the calls before it made, as FILE:LINE:COL, before
// anything runs: `clock jump` after `redlock up "$@"` run with --real.
//
// It decides only what is sure: a statement that may or may not run (in
// an if, a loop, a function, a background job), a nested script, a
// script's function or a word known only at run time makes what it may
// change unknown, and an unknown value refuses nothing.
func Servers(f *syntax.File, name string, args []string) error {
	funcs := scriptFuncs(f)
	s := &servers{file: name, args: args, state: map[string]setting{}}
	for _, st := range f.Stmts {
		if err := s.follow(st, funcs); err != nil {
			return err
		}
	}
	return nil
}

// servers is what the calls followed so far made of the lab's servers.
type servers struct {
	file  string
	args  []string           // the script's arguments
	state map[string]setting // by Effect.Key; a key not here is unknown
}

// setting is a property's value, and the call that gave it.
type setting struct {
	value, by string
	line      uint
}

// follow takes one top-level statement into the state: a plain call in
// sequence by its words' effects, anything else by forgetting what it
// may change.
func (s *servers) follow(st *syntax.Stmt, funcs map[string]bool) error {
	call, ok := stmtCall(st)
	if !ok || st.Background || st.Coprocess {
		s.forgetWithin(st, funcs)
		return nil
	}
	args, known := s.expand(call.Args)
	if len(args) > 0 && known[0] && strings.HasPrefix(args[0], "@") {
		args, known = args[1:], known[1:] // @alice redlock acquire ...: the word after the session
	}
	w, sure := s.word(args, known, funcs)
	switch {
	case !sure:
		clear(s.state)
	case w != nil && w.Effects != nil:
		return s.apply(w, args, known, call)
	}
	return nil
}

// word is the table's word a call runs, and whether what the call may
// change is known: not for a word known only at run time, a script's
// function, or a script the call runs (run FILE, a path).
func (s *servers) word(args []string, known []bool, funcs map[string]bool) (*words.Word, bool) {
	if len(args) == 0 || !known[0] || funcs[args[0]] {
		return nil, len(args) == 0
	}
	c := words.Classify(args, words.Lang)
	if c.Kind == words.Script {
		return nil, false
	}
	return c.Word, true
}

// apply checks a call's effects against the state, then takes in what it
// sets.
func (s *servers) apply(w *words.Word, args []string, known []bool, call *syntax.CallExpr) error {
	effects := w.Effects(args[1:], known[1:])
	for _, e := range effects {
		if was, ok := s.state[e.Key]; ok && e.Refuse != "" && was.value == e.Refuse {
			return syntax.ParseError{Filename: s.file, Pos: call.Args[0].Pos(),
				Text: fmt.Sprintf("%s (since line %d: %s)", e.Why, was.line, was.by)}
		}
	}
	for _, e := range effects {
		switch e.Set {
		case "":
		case words.Unsure:
			delete(s.state, e.Key)
		default:
			s.state[e.Key] = setting{value: e.Set, by: strings.Join(args, " "), line: call.Args[0].Pos().Line()}
		}
	}
	return nil
}

// forgetWithin forgets what the calls inside a statement that may or may
// not run may change: the keys their words' effects set, or everything
// for a call whose word, function or script is not known before it runs.
func (s *servers) forgetWithin(st *syntax.Stmt, funcs map[string]bool) {
	syntax.Walk(st, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		args, known := s.expand(call.Args)
		if len(args) > 0 && known[0] && strings.HasPrefix(args[0], "@") {
			args, known = args[1:], known[1:]
		}
		w, sure := s.word(args, known, funcs)
		if !sure {
			clear(s.state)
		} else if w != nil && w.Effects != nil {
			for _, e := range w.Effects(args[1:], known[1:]) {
				if e.Set != "" {
					delete(s.state, e.Key)
				}
			}
		}
		return true
	})
}

// expand is a call's words as far as they are known before it runs: a
// literal word, or "$@", $@, $1..$9 (quoted or not) replaced by the
// script's arguments; any other word is its text as written, not known.
func (s *servers) expand(ws []*syntax.Word) (args []string, known []bool) {
	for _, w := range ws {
		if lit, ok := words.Literal(w); ok {
			args, known = append(args, lit), append(known, true)
			continue
		}
		if vals, ok := s.positional(w); ok {
			for _, v := range vals {
				args, known = append(args, v), append(known, true)
			}
			continue
		}
		var text strings.Builder
		syntax.NewPrinter().Print(&text, w)
		args, known = append(args, text.String()), append(known, false)
	}
	return args, known
}

// positional is the value of a word that is only "$@", $@, "$N" or $N
// (N from 1 to 9), from the script's arguments: "$@" their words, $N the
// N-th (no word when there are fewer, unquoted; "" quoted).
func (s *servers) positional(w *syntax.Word) ([]string, bool) {
	part, quoted := w.Parts, false
	if len(part) == 1 {
		if dq, ok := part[0].(*syntax.DblQuoted); ok {
			part, quoted = dq.Parts, true
		}
	}
	if len(part) != 1 {
		return nil, false
	}
	pe, ok := part[0].(*syntax.ParamExp)
	if !ok || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return nil, false
	}
	switch n, err := strconv.Atoi(pe.Param.Value); {
	case pe.Param.Value == "@":
		return s.args, true
	case err != nil || n < 1 || n > 9:
		return nil, false
	case n <= len(s.args):
		return []string{s.args[n-1]}, true
	case quoted:
		return []string{""}, true
	}
	return nil, true
}

// scriptFuncs are the functions a script declares.
func scriptFuncs(f *syntax.File) map[string]bool {
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			funcs[fd.Name.Value] = true
		}
		return true
	})
	return funcs
}
