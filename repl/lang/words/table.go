package words

import (
	"context"
	"slices"
	"sync"

	"github.com/locklab/locklab/repl/explore/order"
	"github.com/locklab/locklab/repl/lab/macros"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// labWords are the lab's own words, in the order help lists them. (A
// function, not a variable: help lists the table it is part of.)
func labWords() []Word {
	return []Word{
		{Name: "redis-cli", Kind: Lab, Run: redisCLIWord,
			Usage:   "redis-cli [-h HOST] [-p PORT] [-a PASS] [-n DB] [--raw|--no-raw] [-3] [-r N] CMD ...",
			Summary: "run one command on a fresh connection, printed as the real redis-cli prints it"},
		{Name: "docker", Kind: Lab, Run: docker,
			Usage:   "docker exec [-i] [-t] redis-lesson redis-cli CMD ...",
			Summary: "the lesson's way to reach its Redis container; here it reaches the lab's Redis"},
		{Name: "sleep", Kind: Lab, Run: sleep, Usage: "sleep SECONDS", Summary: "wait (0.3, 1, 2s, 1m); Ctrl-C cuts it short"},
		{Name: "explore", Kind: Lab, Run: func(ctx context.Context, env Env, args []string) error { return env.Explore(ctx, args[1:]) },
			Usage: "explore [--no-reduce] [--save OUT.lab] [--replay N] ... FILE.lab [ARG ...]", Summary: "run a script in every order of its sessions' commands, on virtual time"},
		{Name: "seats", Kind: Lab, Run: seatsWord, Usage: "seats SLOT N", Summary: "tell the notes how many bookings SLOT may hold (1 unless told)"},
		{Name: "schedule", Kind: Lab, Run: scheduleWord, Usage: order.Usage,
			Unexplorable: "it forces one order of the sessions (a saved schedule); explore the script it was saved from",
			Summary:      "make the sessions' commands go in this order (a schedule explore --save found), on any server"},
		{Name: "run", Kind: Script, Run: runScriptWord, Usage: "run FILE [ARG ...]",
			Summary: "run a .lab or .sh script (also: source FILE, bash FILE, ./FILE)"},
		{Name: "help", Kind: Lab, Run: help, Usage: "help [COMMAND]", Summary: "this list, or the syntax of a Redis command"},
		{Name: "clear", Kind: Lab, Run: clear, Usage: "clear", Summary: "clear the screen"},
		{Name: "expect", Kind: Lab, Run: expectWord,
			Usage:   "expect CMD ... OP VALUE | expect reply VALUE | expect verdict KIND | expect lines REGEX OP N",
			Summary: "check the run (a self-checking .lab script); help expect for the grammar"},
		{Name: "timeline", Kind: Lab, Run: timelineWord, Usage: timelineUsage,
			Summary: "draw the last run: a lane per session, time flowing down, a bar per lock"},
		{Name: "load", Kind: Lab, Run: loadWord, Usage: loadUsage,
			Unexplorable: "it runs its own workers for thousands of steps; run it without explore",
			Summary:      "stress the lock: N workers x M acquire/work/release cycles, counted from the server's answers (--json, --modes)"},
		{Name: "cluster", Kind: Lab, Run: clusterWord, Usage: clusterUsage,
			Unexplorable: "it starts real redis-server processes, which do not run on virtual time",
			Summary:      "a primary and a replica (real redis-server children, a proxy in their link) for the failover lab"},
		{Name: "link", Kind: Lab, Run: linkWord, Usage: linkUsage,
			Unexplorable: "it cuts a real replication link (cluster)",
			Summary:      "drop the replication stream (primary->replica, or both ways), keeping the connection open"},
		{Name: "crash", Kind: Lab, Run: crashWord, Usage: "crash primary | " + redlock.CrashUsage,
			Unexplorable: "it kills a server (a cluster's, or a Redlock node, whose own clocks explore does not drive yet)",
			Summary:      "SHUTDOWN NOSAVE NOW on the primary (nothing unreplicated survives), or stop a redlock node (its data gone)"},
		{Name: "promote", Kind: Lab, Run: promoteWord, Usage: "promote replica",
			Unexplorable: "it promotes a real replica (cluster)",
			Summary:      "REPLICAOF NO ONE: the replica becomes the primary (`@NAME on primary` follows it)"},
		{Name: "replication", Kind: Lab, Run: replicationWord, Usage: "replication",
			Unexplorable: "it reads a real cluster's replication offsets",
			Summary:      "both roles, the primary's and the replica's offsets, the bytes the link dropped"},
		{Name: "redlock", Kind: Lab, Run: redlockWord, Usage: redlock.Usage,
			Unexplorable: "it starts Redlock's nodes, each on a clock of its own, which explore does not drive yet",
			Summary:      "lesson 5: N independent nodes (A..E) and the Redlock algorithm, each node's answer shown"},
		{Name: "clock", Kind: Lab, Run: redlockWord, Usage: redlock.ClockUsage, Summary: "move one redlock node's clock (and its TTLs)",
			Unexplorable: "it moves a Redlock node's clock, which explore does not drive yet"},
		{Name: "restart", Kind: Lab, Run: redlockWord, Usage: redlock.RestartUsage, Summary: "bring a crashed redlock node back, empty"},
		{Name: "pause", Kind: Lab, Run: redlockWord, Usage: redlock.PauseUsage, Summary: "stop a whole session, its watchdog included, for DUR (a GC pause)"},
		{Name: "make", Kind: Lab, Run: makeWord, Usage: makeUsage,
			Summary: "the lesson's Locks Lab: make break (plain DEL), make test (the Lua release), make load"},
		{Name: "verdict", Kind: Lab, Run: verdictWord, Usage: "verdict",
			Summary: "the verdict on the run so far: double booking, wrong-owner deletes, overlaps, or all clear"},
	}
}

// scriptAliases run a script file as `run` does.
var scriptAliases = []string{"source", ".", "bash", "sh"}

// table is every word of the lab, built on first use (start-up stays
// light), and its index by name.
var (
	tableOnce sync.Once
	table     []Word
	byName    map[string]*Word
)

// Table is every word of the lab: its own, the script aliases, then the
// lesson's macros.
func Table() []Word {
	tableOnce.Do(buildTable)
	return table
}

func buildTable() {
	table = labWords()
	run := table[slices.IndexFunc(table, func(w Word) bool { return w.Name == "run" })]
	for _, alias := range scriptAliases {
		w := run
		w.Name = alias
		table = append(table, w)
	}
	for i := range macros.Macros {
		table = append(table, macroWord(&macros.Macros[i]))
	}
	byName = make(map[string]*Word, len(table))
	for i := range table {
		byName[table[i].Name] = &table[i]
	}
}

// Find returns the table's word called name, or nil.
func Find(name string) *Word {
	tableOnce.Do(buildTable)
	return byName[name]
}

// helpShellWords are the shell's own words the lab keeps, for help and
// completion.
var helpShellWords = []string{"echo", "printf", "wait", "jobs", "kill", "test", "if", "then", "else", "fi", "for", "do", "done", "exit", "quit"}

// Names lists every word a line may start with besides Redis commands:
// the lab's, the macros, and the shell words it keeps (for completion).
func Names() []string {
	var out []string
	for _, w := range Table() {
		if w.Name != "." {
			out = append(out, w.Name)
		}
	}
	return append(out, helpShellWords...)
}
