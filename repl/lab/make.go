package lab

import (
	"context"

	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// makeTargets are the Locks Lab's own `make` targets (the lesson's "Run
// Targets"), as the lab's scripts.
var makeTargets = map[string]string{
	"break": "scripts/locks-break.lab", // the naive release: look for WRONG-OWNER DEL lines
	"test":  "scripts/locks-fix.lab",   // the Lua release: fails on any wrong-owner delete
	"load":  "scripts/load.lab",        // more workers and iterations on the release invariant
}

var makeSpec = &flags.Spec{Name: "make", Subs: []*flags.Spec{
	{Name: "make break", Summary: "the naive release: look for WRONG-OWNER DEL lines"},
	{Name: "make test", Summary: "the Lua release: fails on any wrong-owner delete"},
	{Name: "make load", Summary: "more workers and iterations on the release invariant"},
}}

// makeWord is `make TARGET`: the lesson's Locks Lab, run as its scripts.
func makeWord(ctx context.Context, env words.Env, args []string) error {
	p, err := makeSpec.Parse(args[1:])
	if err != nil {
		return err
	}
	return env.RunScript(ctx, makeTargets[p.Sub], nil)
}
