package words

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/locklab/locklab/repl/cli/session"
)

// connectWord is redis-cli's `connect HOST PORT`, at the prompt: every
// session talks to that server from its next command on, with the same
// credentials, database and TLS; the prompt says where. `connect` alone
// goes back to the server locklab started with (the embedded Redis, or
// the one -h/-p named). As with redis-cli, a server that does not answer
// is said, and the prompt reads "not connected" until one does.
func connectWord(ctx context.Context, env Env, args []string) error {
	if !env.Interactive() || env.InFile() {
		return Failf("connect: only at the prompt; a script names its server with -h/-p (or redis-cli -h/-p for one command)")
	}
	set := env.Sessions()
	t := set.Origin
	switch len(args) {
	case 1:
	case 3:
		if port, err := strconv.Atoi(args[2]); err != nil || port < 1 || port > 65535 {
			return &Error{Status: 2, Msg: fmt.Sprintf("connect: %q is not a port\nusage: connect HOST PORT", args[2])}
		}
		t = set.Target
		t.Network, t.Addr = "tcp", net.JoinHostPort(args[1], args[2])
		t.Embedded, t.InProcess, t.Role = false, nil, ""
		if o := set.Origin; o.Embedded && o.Addr == t.Addr {
			t = o // the embedded Redis, by its address
		}
	default:
		return &Error{Status: 2, Msg: "connect: HOST PORT, or nothing to go back\nusage: connect [HOST PORT]"}
	}
	set.Connect(t)
	if err := set.Get(session.Main).Connect(ctx); err != nil {
		fmt.Fprintln(env.Stderr(), session.Describe(err, t))
		return Status(1)
	}
	return nil
}
