package lab

import (
	"context"

	"github.com/locklab/locklab/repl/lang/words"
)

// makeTargets are the Locks Lab's own `make` targets (the lesson's "Run
// Targets"), as the lab's scripts.
var makeTargets = map[string]string{
	"break": "scripts/locks-break.lab", // the naive release: look for WRONG-OWNER DEL lines
	"test":  "scripts/locks-fix.lab",   // the Lua release: fails on any wrong-owner delete
	"load":  "scripts/load.lab",        // more workers and iterations on the release invariant
}

const makeUsage = "make break | make test | make load"

// makeWord is `make TARGET`: the lesson's Locks Lab, run as its scripts.
func makeWord(ctx context.Context, env words.Env, args []string) error {
	if len(args) != 2 || makeTargets[args[1]] == "" {
		return words.Usage(makeUsage + "   (the Locks Lab's targets: the naive release, the Lua release, the load)")
	}
	return env.RunScript(ctx, makeTargets[args[1]], nil)
}
