package precheck

import (
	"fmt"

	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// Nearest is the lab word closest to a typo (flags.Nearest: the one
// measure of "did you mean" for words and flags alike), or "".
func Nearest(word string) string {
	var names []string
	for _, w := range words.Table() {
		if w.Name != "." {
			names = append(names, w.Name)
		}
	}
	return flags.Nearest(word, names)
}

// NotALabCommand is what a word that is neither the lab's nor Redis's
// gets, in a script's check and at run time alike: with the nearest lab
// word when there is one.
func NotALabCommand(name string) string {
	if best := Nearest(name); best != "" {
		return fmt.Sprintf("%s: not a lab command (did you mean %s? host programs never run here)", name, best)
	}
	return fmt.Sprintf("%s: not a lab command (host programs never run here; type help for what does)", name)
}
