package shell_test

import (
	"os"
	"strings"
)

// gen writes a script of the lab language from fuzz bytes, each byte one
// choice of the grammar: statements (pipes, &, &&, groups, subshells,
// functions, loops, if), simple commands (the shell's builtins in their
// spellings, the lab's words that take a file, Redis's), redirections,
// $(...), and host paths in every slot. Past the input's end every choice
// is the first.
type gen struct {
	data []byte
	skip map[string]bool // tags of commands left out (see FuzzHostileScript)
}

func (g *gen) pick(n int) int {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b) % n
}

func (g *gen) script() string {
	n := 1 + g.pick(3)
	stmts := make([]string, n)
	for i := range stmts {
		stmts[i] = g.stmt(0)
	}
	return strings.Join(stmts, []string{"\n", "; "}[g.pick(2)])
}

// stmt is one statement; past depth 2 only simple commands.
func (g *gen) stmt(depth int) string {
	if depth > 2 {
		return g.simple()
	}
	inner := func() string { return g.stmt(depth + 1) }
	switch g.pick(17) {
	case 8:
		return inner() + " | " + inner()
	case 9:
		return inner() + " & wait"
	case 10:
		return inner() + []string{" && ", " || "}[g.pick(2)] + inner()
	case 11:
		return "{ " + inner() + "; }" + g.redir()
	case 12:
		return "( " + inner() + " )" + g.redir()
	case 13:
		return "f() { " + inner() + "; }" + g.redir() + "; f " + g.path() + []string{"", " & wait"}[g.pick(2)]
	case 14:
		return "for p in " + g.path() + " " + g.path() + "; do " + inner() + "; done"
	case 15:
		return []string{"while :", "until false"}[g.pick(2)] + "; do " + inner() + "; break; done" + g.redir()
	case 16:
		return "if " + inner() + "; then " + inner() + "; else " + inner() + "; fi"
	}
	return g.simple()
}

// simple is a command with an optional prefix and redirections.
func (g *gen) simple() string {
	prefix := g.fill(prefixes[g.pick(len(prefixes))])
	c := commands[g.pick(len(commands))]
	if g.skip[c.tag] {
		return "true"
	}
	return prefix + g.fill(c.text) + g.redir()
}

// fill puts a path for each %p of text and a word for each %w.
func (g *gen) fill(text string) string {
	var b strings.Builder
	for i, part := range strings.Split(text, "%") {
		switch {
		case i == 0:
		case strings.HasPrefix(part, "p"):
			part = g.path() + part[1:]
		case strings.HasPrefix(part, "w"):
			part = g.word() + part[1:]
		default:
			b.WriteString("%")
		}
		b.WriteString(part)
	}
	return b.String()
}

func (g *gen) redir() string {
	if n := g.pick(2 * len(redirOps)); n < len(redirOps) {
		return " " + redirOps[n] + " " + g.path()
	}
	return ""
}

func (g *gen) path() string { return paths[g.pick(len(paths))] }
func (g *gen) word() string { return words[g.pick(len(words))] }

// knownHoles are the tags $HOSTILE_FUZZ_SKIP names (tls,socket,lua): to
// fuzz past holes already reported.
func knownHoles() map[string]bool {
	skip := map[string]bool{}
	for _, tag := range strings.Split(os.Getenv("HOSTILE_FUZZ_SKIP"), ",") {
		skip[strings.TrimSpace(tag)] = tag != ""
	}
	return skip
}
