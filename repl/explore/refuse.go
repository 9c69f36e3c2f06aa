package explore

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/lang/words"
)

// unexplorableRedis says why explore refuses a Redis command (its words,
// in any case): one that streams (commands.Streams), whose messages come
// for ever; "" for any other.
func unexplorableRedis(args []string) string {
	switch {
	case !commands.Streams(args):
		return ""
	case strings.EqualFold(args[0], "MONITOR"):
		return "it streams every command for ever, and no schedule ends while it does"
	}
	return "it waits for messages for ever, and no schedule ends while it does"
}

// RefusedError is a script explore will not run: it uses Word, at Pos
// in its text, or (At, FILE:LINE:COL) a run reached Word there.
type RefusedError struct {
	Word, Why string
	Pos       syntax.Pos
	At        string
}

func (e *RefusedError) Error() string {
	if e.At != "" {
		return fmt.Sprintf("%s: refused: the script runs `%s`: %s", e.At, e.Word, e.Why)
	}
	return fmt.Sprintf("refused: line %d uses `%s`: %s", e.Pos.Line(), e.Word, e.Why)
}

// refuse finds the first command of the script that explore cannot run
// (a call whose word's entry says so, words.Word.ExploreRefusal, or a
// stream), before
// anything runs. A script that does not parse is left to the run, which
// reports its syntax error. A word named only at run time ($c up), or in
// another script the script runs, is the run's to refuse (runRefusal).
func refuse(sc Script) error {
	f, err := syntax.NewParser().Parse(bytes.NewReader(sc.Text), sc.Name)
	if err != nil {
		return nil
	}
	var found *RefusedError
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if found != nil || !ok || len(call.Args) == 0 {
			return found == nil
		}
		if word, why := commandWord(call); word != "" {
			found = &RefusedError{Word: word, Why: why, Pos: call.Pos()}
		}
		return found == nil
	})
	if found == nil {
		return nil
	}
	return found
}

// commandWord is call's command word (past an @NAME, or redis-cli's
// repeat count) and why explore refuses it, or "" when it does not: a
// lab word as written, a Redis command in any case, quoted or not.
func commandWord(call *syntax.CallExpr) (word, why string) {
	lits := words.Literals(call.Args)
	for len(lits) > 1 && (strings.HasPrefix(lits[0], "@") || strings.Trim(lits[0], "0123456789") == "") {
		lits = lits[1:]
	}
	if len(lits) == 0 {
		return "", "" // known at run time only
	}
	word = lits[0]
	if c := words.Classify(lits, words.Lang); c.Word != nil {
		if why := c.Word.ExploreRefusal(lits); why != "" {
			return word, why
		}
	}
	if why := unexplorableRedis(lits); why != "" {
		return word, why
	}
	return "", ""
}

// runRefusal stops a schedule's run at the first call it reaches whose
// word's entry says explore cannot run it, before the word runs: the
// shell asks it (shell.Config.Refuse) about every call of a word of the
// table. It keeps that
// refusal for the search, which then stops with it.
type runRefusal struct {
	mu    sync.Mutex
	first *RefusedError
}

// check refuses the call args of w, at FILE:LINE:COL, when its entry
// says explore cannot run it (words.Word.ExploreRefusal).
func (r *runRefusal) check(w *words.Word, args []string, at string) error {
	why := w.ExploreRefusal(args)
	if why == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.first == nil {
		r.first = &RefusedError{Word: w.Name, Why: why, At: at}
	}
	return r.first
}

// err is the run's first refusal, or nil.
func (r *runRefusal) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.first == nil {
		return nil
	}
	return r.first
}
