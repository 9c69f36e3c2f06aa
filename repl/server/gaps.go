package server

import (
	"bufio"
	"bytes"
	"strings"
	"sync"

	"github.com/alicebob/miniredis/v2"
	mrserver "github.com/alicebob/miniredis/v2/server"

	"github.com/locklab/locklab/repl/commands"
)

// Lacks reports whether the embedded Redis lacks the command called name
// ("DEBUG", or a subcommand as "CLIENT LIST"), one real Redis has: the
// one answer to "is this a gap of the embedded Redis?", which completion
// and the hint under an error both ask. What the embedded Redis has is
// read from itself, once: the commands it registers, and of those with
// subcommands, the subcommands it does not answer with "unknown
// subcommand" or "not supported".
func Lacks(name string) bool {
	return embeddedGaps()[strings.ToUpper(strings.Join(strings.Fields(name), " "))]
}

// embeddedGaps are the commands and subcommands of locklab's table the
// embedded Redis lacks, found on a server of its own, started for it and
// closed at once (nothing of a lab's server is touched). Each subcommand
// of a container it has is tried once, with no arguments: every one
// answers at once (an error, or an empty answer).
var embeddedGaps = sync.OnceValue(func() map[string]bool {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		return nil // no gaps known: no hints, all completions
	}
	defer m.Close()
	srv := m.Server()
	gaps := map[string]bool{}
	for _, c := range commands.All() {
		top, sub, isSub := strings.Cut(c.Name, " ")
		switch {
		case !srv.IsRegisteredCommand(top):
			gaps[c.Name] = true
		case isSub:
			gaps[c.Name] = unknownSub(try(srv, top, sub))
		}
	}
	return gaps
})

// try is the embedded server's answer to args, as RESP.
func try(srv *mrserver.Server, args ...string) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	srv.Dispatch(mrserver.NewPeer(w), args)
	w.Flush()
	return b.String()
}

// unknownSub reports whether a reply refuses a subcommand as unknown
// ("unknown subcommand 'LIST'"; not "unknown subcommand or wrong number
// of arguments", its SCRIPT LOAD's answer to no script) or unsupported.
func unknownSub(reply string) bool {
	return strings.HasPrefix(reply, "-") && (strings.Contains(reply, "unknown subcommand '") || strings.Contains(reply, "not supported"))
}
