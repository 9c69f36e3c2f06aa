package app

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/locklab/locklab/repl/cli/pipe"
	"github.com/locklab/locklab/repl/cli/session"
)

// pipe is --pipe, as redis-cli's: stdin goes to the server as it is, and
// the replies are counted. Status 1 when one was an error, or the pipe
// did not finish; 2 when anything but stdin was given to run.
func (in *input) pipe(ctx context.Context) int {
	if in.opts.HasLine || len(in.opts.Args) > 0 {
		fmt.Fprintln(in.stderr, "locklab: --pipe sends stdin as it is: give it no command, file or -c line")
		return 2
	}
	timeout := 30 * time.Second
	if in.opts.Flags.Set["pipe-timeout"] {
		timeout = in.opts.Flags.PipeTimeout
	}
	ctx, stop := in.interruptible(ctx)
	defer stop()
	var res pipe.Result
	opened := false
	conn := session.NewConn(in.sessions.Target, "")
	defer conn.Close()
	err := conn.Raw(ctx, func(socket net.Conn) error {
		var err error
		opened = true
		stdin := in.stdin
		if in.sessions.Target.Embedded {
			stdin = pipe.AsRESP(stdin) // it reads no inline commands
		}
		res, err = pipe.Run(socket, stdin, in.stdout, in.stderr, timeout)
		return err
	})
	switch {
	case ctx.Err() != nil:
		return 130
	case err != nil && !opened:
		fmt.Fprintln(in.stderr, session.Describe(err, in.sessions.Target)) // it could not connect
		return 1
	case err != nil || res.Errors > 0:
		return 1
	}
	return 0
}
