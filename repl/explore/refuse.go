package explore

import (
	"bytes"
	"fmt"

	"mvdan.cc/sh/v3/syntax"
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
		if why, bad := unexplorable[call.Args[0].Lit()]; bad {
			found = &RefusedError{Word: call.Args[0].Lit(), Why: why, Pos: call.Pos()}
		}
		return found == nil
	})
	if found == nil {
		return nil
	}
	return found
}
