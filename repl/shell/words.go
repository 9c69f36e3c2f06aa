package shell

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/commands"
	"github.com/locklab/locklab/repl/lab"
)

// labCommand runs one of the lab's own command words.
type labCommand func(s *Shell, ctx context.Context, hc interp.HandlerContext, args []string) error

// labWord is one of the lab's own command words: the one table that
// dispatch, help and completion all read.
type labWord struct {
	name, usage, summary string
	run                  labCommand
	bidder               bool // its first argument names a bidder: a job running it is a session of that name
}

var labWords = []labWord{
	{name: "redis-cli", usage: "redis-cli [-h HOST] [-p PORT] [-a PASS] [-n DB] [--raw|--no-raw] [-3] [-r N] CMD ...",
		summary: "run one command on a fresh connection, printed as the real redis-cli prints it", run: (*Shell).redisCLIWord},
	{name: "docker", usage: "docker exec [-i] [-t] redis-lesson redis-cli CMD ...",
		summary: "the lesson's way to reach its Redis container; here it reaches the lab's Redis", run: (*Shell).docker},
	{name: "sleep", usage: "sleep SECONDS", summary: "wait (0.3, 1, 2s, 1m); Ctrl-C cuts it short", run: (*Shell).sleep},
	{name: "run", usage: "run FILE [ARG ...]", summary: "run a .lab or .sh script (also: source FILE, bash FILE, ./FILE)", run: (*Shell).runScriptWord},
	{name: "help", usage: "help [COMMAND]", summary: "this list, or the syntax of a Redis command"}, // run set in init: help lists labWords
	{name: "clear", usage: "clear", summary: "clear the screen", run: (*Shell).clear},
	{name: "expect", usage: "expect CMD ... OP VALUE | expect reply VALUE | expect verdict KIND | expect lines REGEX OP N",
		summary: "check the run (a self-checking .lab script); help expect for the grammar", run: (*Shell).expect},
	{name: "timeline", usage: "timeline [--width N] [--compact] [--mermaid FILE] [--svg FILE]",
		summary: "draw the last run: a lane per session, time flowing down, a bar per lock", run: (*Shell).timelineWord},
	{name: "load", usage: loadUsage,
		summary: "stress the lock: N workers x M acquire/work/release cycles, counted from the server's answers (--json, --modes)", run: (*Shell).loadWord},
	{name: "cluster", usage: clusterUsage,
		summary: "a primary and a replica (real redis-server children, a proxy in their link) for the failover lab", run: (*Shell).clusterWord},
	{name: "link", usage: "link cut|heal [--both] [--pause]",
		summary: "drop the replication stream (primary->replica, or both ways), keeping the connection open", run: (*Shell).linkWord},
	{name: "crash", usage: "crash primary", summary: "SHUTDOWN NOSAVE NOW on the primary: nothing it had not replicated survives", run: (*Shell).crashWord},
	{name: "promote", usage: "promote replica", summary: "REPLICAOF NO ONE: the replica becomes the primary (`@NAME on primary` follows it)", run: (*Shell).promoteWord},
	{name: "replication", usage: "replication", summary: "both roles, the primary's and the replica's offsets, the bytes the link dropped", run: (*Shell).replicationWord},
	{name: "verdict", usage: "verdict", summary: "the verdict on the run so far: double booking, wrong-owner deletes, overlaps, or all clear", run: (*Shell).verdictWord},
	{name: "@NAME", usage: "@NAME [on primary|replica] COMMAND ...", summary: "run COMMAND in session NAME, on its own connection (on a cluster node)"},
}

// The shell's own words the lab keeps, for help and completion.
var shellWords = []string{"echo", "printf", "wait", "test", "if", "then", "else", "fi", "for", "do", "done", "exit", "quit"}

// wordIndex finds a lab word by name, including the aliases that share a
// handler.
var wordIndex = map[string]*labWord{}

func init() {
	labWords[slices.IndexFunc(labWords, func(w labWord) bool { return w.name == "help" })].run = (*Shell).help
	for i := range labWords {
		if labWords[i].run != nil {
			wordIndex[labWords[i].name] = &labWords[i]
		}
	}
	wordIndex[helpWord] = wordIndex["help"]
	run := wordIndex["run"]
	for _, alias := range []string{runWord, "bash", "sh"} {
		wordIndex[alias] = run
	}
}

// Words lists the lab's own command words and the shell words it keeps,
// for completion.
func Words() []string {
	var out []string
	for _, w := range labWords {
		if w.run != nil {
			out = append(out, w.name)
		}
	}
	return append(out, shellWords...)
}

// help prints the lab's words, or a Redis command's syntax as redis-cli's
// `help CMD` does.
func (s *Shell) help(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) > 1 {
		return s.helpCommand(hc, args[1:])
	}
	fmt.Fprintln(hc.Stdout, "locklab: type Redis commands (SET, GET, EVAL ...) as in redis-cli, or lesson lines as they are.")
	for _, section := range []struct {
		title  string
		macros bool
	}{{"The lesson's scenarios:", true}, {"Lab commands:", false}} {
		fmt.Fprintln(hc.Stdout, section.title)
		for _, w := range labWords {
			if (lab.Find(w.name) != nil) == section.macros {
				fmt.Fprintf(hc.Stdout, "  %s\n      %s\n", w.usage, w.summary)
			}
		}
	}
	fmt.Fprintf(hc.Stdout, "Shell words: %s\n", strings.Join(shellWords, " "))
	fmt.Fprintln(hc.Stdout, "`help SET` shows a Redis command's syntax. Ctrl-C cancels, Ctrl-D or quit leaves.")
	return nil
}

func (s *Shell) helpCommand(hc interp.HandlerContext, words []string) error {
	if words[0] == "expect" {
		fmt.Fprintln(hc.Stdout, expectHelp)
		return nil
	}
	if w := wordIndex[words[0]]; w != nil {
		fmt.Fprintf(hc.Stdout, "  %s\n  summary: %s\n", w.usage, w.summary)
		return nil
	}
	cmd, _ := commands.Lookup(words)
	if cmd == nil {
		fmt.Fprintf(hc.Stderr, "locklab: help: no command called %q%s\n", strings.Join(words, " "), suggest(words[0]))
		return interp.ExitStatus(1)
	}
	fmt.Fprintf(hc.Stdout, "\n  %s\n  summary: %s\n  since: %s\n  group: %s\n\n", cmd.Syntax(), cmd.Summary, cmd.Since, cmd.Group)
	return nil
}

// suggest offers the known command names that start like word.
func suggest(word string) string {
	var near []string
	for _, n := range commands.Names() {
		if len(word) >= 2 && strings.HasPrefix(n, strings.ToUpper(word[:2])) {
			near = append(near, n)
		}
	}
	sort.Strings(near)
	if len(near) == 0 || len(near) > 8 {
		return ""
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}
