package explore

import (
	"bytes"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/words"
)

// unexplorable are the words explore refuses, and why.
var unexplorable = map[string]string{
	"cluster":     "it starts real redis-server processes, which do not run on virtual time",
	"link":        "it cuts a real replication link (cluster)",
	"crash":       "it kills a server (a cluster's, or a Redlock node, whose own clocks explore does not drive yet)",
	"redlock":     "Redlock's nodes each run on a clock of their own, which explore does not drive yet",
	"clock":       "it moves a Redlock node's clock, which explore does not drive yet",
	"promote":     "it promotes a real replica (cluster)",
	"replication": "it reads a real cluster's replication offsets",
	"load":        "it runs its own workers for thousands of steps; run it without explore",
	"schedule":    "it forces one order of the sessions (a saved schedule); explore the script it was saved from",
}

// unexplorableRedis are the Redis commands explore refuses (in any
// case), and why.
var unexplorableRedis = map[string]string{
	"SUBSCRIBE":  "it waits for messages for ever, and no schedule ends while it does",
	"PSUBSCRIBE": "it waits for messages for ever, and no schedule ends while it does",
	"SSUBSCRIBE": "it waits for messages for ever, and no schedule ends while it does",
	"MONITOR":    "it streams every command for ever, and no schedule ends while it does",
}

// RefusedError is a script explore will not run: it uses Word, at Pos.
type RefusedError struct {
	Word, Why string
	Pos       syntax.Pos
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: line %d uses `%s`: %s", e.Pos.Line(), e.Word, e.Why)
}

// refuse finds the first command of the script that explore cannot run
// (see unexplorable), before anything runs. A script that does not
// parse is left to the run, which reports its syntax error.
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
	if why, ok := unexplorable[word]; ok {
		return word, why
	}
	if why, ok := unexplorableRedis[strings.ToUpper(word)]; ok {
		return word, why
	}
	return "", ""
}
