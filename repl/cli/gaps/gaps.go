// Package gaps is the one answer to "does the embedded Redis lack this
// command?", which completion and the hint under an error both ask: the
// commands and subcommands of locklab's table that the embedded Redis
// lacks (server.Gaps), found once, on first use.
package gaps

import (
	"strings"
	"sync"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/server"
)

// Embedded reports whether the embedded Redis lacks the command called
// name ("DEBUG", or a subcommand as "CLIENT LIST"), one real Redis has.
// A name not in the table is no gap.
func Embedded(name string) bool {
	return embedded()[strings.ToUpper(strings.Join(strings.Fields(name), " "))]
}

var embedded = sync.OnceValue(func() map[string]bool {
	var names []string
	for _, c := range commands.All() {
		names = append(names, c.Name)
	}
	gaps, err := server.Gaps(names)
	if err != nil {
		return nil // none known: no hints, every completion
	}
	return gaps
})
