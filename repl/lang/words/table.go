package words

import (
	"slices"
	"sync"
)

// kernelWords are the words the language has whatever features the
// program installs: redis-cli as the lesson runs it, sleep, run, help
// and clear. (A function, not a variable: help lists the table it is
// part of.)
func kernelWords() []Word {
	return []Word{
		{Name: "redis-cli", Kind: Lab, Run: redisCLIWord,
			Usage:   "redis-cli [-h HOST] [-p PORT] [-a PASS] [-n DB] [--raw|--no-raw] [-3] [-r N] CMD ...",
			Summary: "run one command on a fresh connection, printed as the real redis-cli prints it"},
		{Name: "docker", Kind: Lab, Run: docker,
			Usage:   "docker exec [-i] [-t] redis-lesson redis-cli CMD ...",
			Summary: "the lesson's way to reach its Redis container; here it reaches the lab's Redis"},
		{Name: "sleep", Kind: Lab, Run: sleep, Usage: "sleep SECONDS", Summary: "wait (0.3, 1, 2s, 1m); Ctrl-C cuts it short"},
		{Name: "run", Kind: Script, Run: runScriptWord, Usage: "run FILE [ARG ...]",
			Summary: "run a .lab or .sh script (also: source FILE, bash FILE, ./FILE)"},
		{Name: "help", Kind: Lab, Run: help, Usage: "help [COMMAND]", Summary: "this list, or the syntax of a Redis command"},
		{Name: "clear", Kind: Lab, Run: clear, Usage: "clear", Summary: "clear the screen"},
		{Name: "connect", Kind: Lab, Run: connectWord, Usage: "connect [HOST PORT]", Unexplorable: "it changes the lab's server",
			Summary: "talk to the server at HOST PORT from now on, as redis-cli's connect; alone, back to the first one"},
	}
}

// aliases are the words' other names: a script file runs as with `run`,
// and help answers to redis-cli's spellings of it.
var aliases = map[string][]string{"run": {"source", ".", "bash", "sh"}, "help": {"HELP", "Help", "?"}}

// table is every word of the lab, built on first use (start-up stays
// light) from the kernel's words and the features Install gave, and its
// index by name. A word's Usage, Check and Help are made from its Spec
// (fromSpec), and its --help answered (answerHelp), when it is first
// handed out: telling one Redis command from the lab's words (Find)
// completes none.
var (
	mu        sync.Mutex
	installed [][]Word
	built     bool
	table     []Word
	byName    map[string]*Word
)

// Install gives the table the features' words, in the order help lists
// them: the program's set-up calls it once, with a literal list
// (lab.Words(), explore.Words() ...), before the first line runs. The
// kernel imports no feature: a word is known only once installed.
func Install(sets ...[]Word) {
	mu.Lock()
	defer mu.Unlock()
	installed, built = sets, false
}

// Table is every word of the lab: the kernel's, the script aliases, then
// the installed features' words.
func Table() []Word {
	mu.Lock()
	defer mu.Unlock()
	build()
	for i := range table {
		complete(&table[i])
	}
	return table
}

func build() {
	if built {
		return
	}
	table = kernelWords()
	for _, name := range []string{"run", "help"} {
		word := table[slices.IndexFunc(table, func(w Word) bool { return w.Name == name })]
		for _, alias := range aliases[name] {
			w := word
			w.Name, w.alias = alias, true
			table = append(table, w)
		}
	}
	for _, set := range installed {
		table = append(table, set...)
	}
	byName = make(map[string]*Word, len(table))
	for i := range table {
		byName[table[i].Name] = &table[i]
	}
	built = true
}

// Find returns the table's word called name, or nil.
func Find(name string) *Word {
	mu.Lock()
	defer mu.Unlock()
	build()
	return complete(byName[name])
}

// complete makes w's Usage, Check and Help from its Spec and answers its
// --help (answerHelp), once (nil stays nil).
func complete(w *Word) *Word {
	if w != nil && !w.filled {
		fromSpec(w)
		answerHelp(w)
		w.filled = true
	}
	return w
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

// fromSpec makes a word's Usage, Check and Help from its Spec, where the
// entry does not give its own.
func fromSpec(w *Word) {
	s := w.Spec
	if s == nil {
		return
	}
	if w.Usage == "" {
		w.Usage = s.Usage()
	}
	if w.Check == nil {
		w.Check = s.Check
	}
	if w.Help == nil {
		summary := w.Summary
		w.Help = func() string { return s.Help(summary) }
	}
}
