package words_test

import (
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lang/words"
)

// TestHelpAskedEveryWord: every word of the table, and every subcommand,
// answers --help with its help; such a call is nothing for its Check and
// its Effects to refuse or follow.
func TestHelpAskedEveryWord(t *testing.T) {
	for _, w := range words.Table() {
		want := "  " + w.Usage + "\n  summary: " + w.Summary
		if w.Help != nil {
			want = w.Help()
		}
		if text, ok := words.HelpAsked([]string{w.Name, "--help"}); !ok || text != want {
			t.Errorf("%s --help: %v %q, want its help", w.Name, ok, text)
		}
		if w.Check != nil {
			if err := w.Check([]string{"--help"}, []bool{true}); err != nil {
				t.Errorf("%s --help: Check refused it: %v", w.Name, err)
			}
		}
		if w.Effects != nil && w.Effects([]string{"up", "--real", "--help"}, []bool{true, true, true}) != nil {
			t.Errorf("%s up --real --help: Effects followed it", w.Name)
		}
		if w.Spec == nil {
			continue
		}
		for _, sub := range w.Spec.Subs {
			line := append(strings.Fields(sub.Name), "--help")
			if text, ok := words.HelpAsked(line); !ok || !strings.HasPrefix(text, "  "+sub.Usage()+"\n") {
				t.Errorf("%s: %v %q, want the subcommand's help", strings.Join(line, " "), ok, text)
			}
		}
	}
}

// TestHelpAskedNot: --help that is an argument, not a request.
func TestHelpAskedNot(t *testing.T) {
	for _, line := range []string{
		"SET k --help",                // a Redis command: sent as typed
		"run x.lab --help",            // the script's $1
		"redis-cli SET k --help",      // sent
		"expect reply --help",         // expected
		"book alice -- --help",        // a positional argument, after --
		"load --key=--help",           // a flag's value
		"redlock acquire k -- --help", // the subcommand's positional argument
		"book",                        // no --help at all
	} {
		if text, ok := words.HelpAsked(strings.Fields(line)); ok {
			t.Errorf("%s: asked for help %q", line, text)
		}
	}
}
