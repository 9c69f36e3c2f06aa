package words

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/cli/commands"
)

// sessionHelp is `@NAME` in help: a prefix, not a word of the table.
var sessionHelp = Word{Name: "@NAME", Usage: "@NAME [on primary|replica] COMMAND ...",
	Summary: "run COMMAND in session NAME, on its own connection (on a cluster node)"}

// help prints the lab's words, or a command's syntax as redis-cli's
// `help CMD` does.
func help(ctx context.Context, env Env, args []string) error {
	if len(args) > 1 {
		return helpCommand(env, args[1:])
	}
	out := env.Stdout()
	fmt.Fprintln(out, "locklab: type Redis commands (SET, GET, EVAL ...) as in redis-cli, or lesson lines as they are.")
	fmt.Fprintln(out, "The lesson's scenarios:")
	for _, w := range Table() {
		if w.Kind == Macro {
			fmt.Fprintf(out, "  %s\n      %s\n", w.Usage, w.Summary)
		}
	}
	fmt.Fprintln(out, "Lab commands:")
	for _, w := range append(Table(), sessionHelp) {
		if w.Kind == Macro || w.alias {
			continue
		}
		fmt.Fprintf(out, "  %s\n      %s\n", w.Usage, w.Summary)
	}
	fmt.Fprintf(out, "Shell words: %s\n", strings.Join(helpShellWords, " "))
	fmt.Fprintln(out, "`help SET` shows a Redis command's syntax, `help WORD` or `WORD --help` a lab word's. Ctrl-C cancels, Ctrl-D or quit leaves.")
	return nil
}

func helpCommand(env Env, words []string) error {
	if group, ok := strings.CutPrefix(words[0], "@"); ok {
		return helpGroup(env, group)
	}
	if w := Find(words[0]); w != nil {
		fmt.Fprintln(env.Stdout(), w.helpText(words[1:]))
		return nil
	}
	cmd, _ := commands.Lookup(words)
	if cmd == nil {
		hint := ""
		if near := commands.Near(words[0]); len(near) > 0 {
			hint = " (did you mean " + strings.Join(near, ", ") + "?)"
		}
		return Failf("help: no command called %q%s", strings.Join(words, " "), hint)
	}
	fmt.Fprintf(env.Stdout(), "\n  %s\n  summary: %s\n  since: %s\n  group: %s\n\n", cmd.Syntax(), cmd.Summary, cmd.Since, cmd.Group)
	return nil
}

// helpGroup lists a command group's commands as redis-cli's `help
// @string` does: each command's syntax, summary and version, in the
// order of their names.
func helpGroup(env Env, group string) error {
	var listed []*commands.Command
	for _, c := range commands.All() {
		if strings.EqualFold(c.Group, group) {
			listed = append(listed, c)
		}
	}
	if len(listed) == 0 {
		return Failf("help: no command group called @%s (the groups: %s)", group, strings.Join(commandGroups(), " "))
	}
	slices.SortFunc(listed, func(a, b *commands.Command) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	for _, c := range listed {
		fmt.Fprintf(&b, "\n  %s %s\n  summary: %s\n  since: %s\n", c.Name, c.Params(), c.Summary, c.Since)
	}
	fmt.Fprintln(env.Stdout(), b.String())
	return nil
}

// commandGroups are the groups of the command table, each once, as
// `help @GROUP` takes them.
func commandGroups() []string {
	var out []string
	for _, c := range commands.All() {
		if g := "@" + c.Group; c.Group != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}
