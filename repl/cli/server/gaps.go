package server

import (
	"bufio"
	"bytes"
	"strings"

	mrserver "github.com/alicebob/miniredis/v2/server"

	"github.com/locklab/locklab/repl/clock"
)

// Gaps says which of names, commands ("DEBUG") or subcommands ("CLIENT
// LIST"), the embedded Redis lacks, as it says itself: a command it never
// registered, or a subcommand it refuses as unknown or not supported. It
// asks an embedded Redis of its own, started for it and closed at once
// (nothing of a lab's server is touched), where each subcommand of a
// container it has is tried once, with no arguments: every one answers
// at once (an error, or an empty answer). Package gaps keeps the answer.
func Gaps(names []string) (map[string]bool, error) {
	e, err := StartInProcess(clock.Real{}) // with the hook a lab's server has (see refuseSubcommand)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	srv := e.m.Server()
	gaps := map[string]bool{}
	for _, name := range names {
		name = strings.ToUpper(name)
		top, sub, isSub := strings.Cut(name, " ")
		switch {
		case !srv.IsRegisteredCommand(top):
			gaps[name] = true
		case isSub:
			gaps[name] = unknownSub(try(srv, top, sub))
		}
	}
	return gaps, nil
}

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

// refuseSubcommand answers COMMAND's subcommands (COUNT, INFO, DOCS,
// GETKEYS, LIST ...) as redis-server answers one it lacks: miniredis
// ignores them and sends its whole table, which printed as the answer to
// COMMAND COUNT. So refused, they are gaps (Gaps), with the hint that
// says what to do. It reports whether it answered.
func refuseSubcommand(p *mrserver.Peer, cmd string, args []string) bool {
	if cmd != "COMMAND" || len(args) == 0 {
		return false
	}
	p.WriteError("ERR unknown subcommand '" + args[0] + "'. Try COMMAND HELP.")
	return true
}
