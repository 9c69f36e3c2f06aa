package server

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/alicebob/miniredis/v2"
	mrserver "github.com/alicebob/miniredis/v2/server"
)

// Gaps says which of names, commands ("DEBUG") or subcommands ("CLIENT
// LIST"), the embedded Redis lacks, as it says itself: a command it never
// registered, or a subcommand it refuses as unknown or not supported. It
// asks an embedded Redis of its own, started for it and closed at once
// (nothing of a lab's server is touched), where each subcommand of a
// container it has is tried once, with no arguments: every one answers
// at once (an error, or an empty answer). Package gaps keeps the answer.
func Gaps(names []string) (map[string]bool, error) {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		return nil, err
	}
	defer m.Close()
	srv := m.Server()
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
