package words

import (
	"cmp"
	"context"
	"fmt"

	"github.com/locklab/locklab/repl/lang/flags"
)

// helpText is a lab word's help, as `help WORD` prints it: its Help, or
// its usage line and summary; `help WORD SUB` (rest: SUB), a
// subcommand's alone.
func (w *Word) helpText(rest []string) string {
	if w.Spec != nil && len(rest) > 0 {
		if sub := w.Spec.Sub(rest[0]); sub != nil {
			return sub.Help(cmp.Or(sub.Summary, w.Summary))
		}
	}
	if w.Help != nil {
		return w.Help()
	}
	return "  " + w.Usage + "\n  summary: " + w.Summary
}

// helpAsked is the help a call of w asks for with --help (args: the
// words after its name), and whether it asks. For a word with a Spec,
// --help asks wherever its parser would read a flag (flags.HelpAsked):
// `book alice --help`, `redlock acquire --help` (the subcommand's), not
// `book -- --help`. Any other word reads its arguments its own way, so
// only a first argument --help asks (`sleep --help`): `run x.lab --help`
// gives the script its $1, `redis-cli SET k --help` sends it, `expect
// reply --help` expects it.
func (w *Word) helpAsked(args []string) (string, bool) {
	if w.Spec == nil {
		if len(args) == 0 || args[0] != flags.HelpFlag {
			return "", false
		}
		return w.helpText(nil), true
	}
	switch w.Spec.HelpAsked(args) {
	case nil:
		return "", false
	case w.Spec:
		return w.helpText(nil), true
	}
	return w.helpText(args[:1]), true // a subcommand's: args[0] names it
}

// HelpAsked is the help a command line (args[0] a word of the table)
// asks for with --help, as `help WORD` prints it, and whether it asks:
// for `locklab explore --help`, which runs outside the language.
func HelpAsked(args []string) (string, bool) {
	if len(args) == 0 || Find(args[0]) == nil {
		return "", false
	}
	w := Find(args[0])
	return w.helpAsked(args[1:])
}

// answerHelp makes a word of the table answer --help itself, the one
// place it is read (see helpAsked): Run prints what `help WORD` prints,
// on stdout, with status 0, and runs nothing else; Check and Effects see
// nothing to refuse or follow in such a call. No word's own Run, and no
// reader of its arguments (Spec.Parse), ever sees a --help that asks.
func answerHelp(w *Word) {
	word := *w
	run, check, effects := w.Run, w.Check, w.Effects
	w.Run = func(ctx context.Context, env Env, args []string) error {
		if text, ok := word.helpAsked(args[1:]); ok {
			fmt.Fprintln(env.Stdout(), text)
			return nil
		}
		return run(ctx, env, args)
	}
	if check != nil {
		w.Check = func(args []string, known []bool) error {
			if _, ok := word.helpAsked(args); ok {
				return nil
			}
			return check(args, known)
		}
	}
	if effects != nil {
		w.Effects = func(args []string, known []bool) []Effect {
			if _, ok := word.helpAsked(args); ok {
				return nil
			}
			return effects(args, known)
		}
	}
}
