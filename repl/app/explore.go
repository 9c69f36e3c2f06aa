package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lang/words"
)

// isExplore reports whether the command line is `locklab explore ...`.
func isExplore(o Options) bool {
	return !o.HasLine && len(o.Args) >= 1 && o.Args[0] == "explore"
}

// runExplore is `locklab explore ...` (`locklab explore --help` prints
// what `help explore` does): Ctrl-C, or SIGTERM (`timeout 60
// locklab explore ...`), SIGHUP or SIGQUIT (Ctrl-\, which would dump every
// goroutine), stops the search and reports what ran; after any but
// Ctrl-C locklab then ends by it. A signal locklab was started with
// ignored stays ignored.
func runExplore(o Options, stdout, stderr io.Writer) int {
	if help, ok := words.HelpAsked(o.Args); ok { // the explore word's help
		fmt.Fprintln(stdout, help)
		return 0
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	for _, sig := range append([]os.Signal{os.Interrupt}, endSignals...) {
		if !signal.Ignored(sig) {
			signal.Notify(sigs, sig)
		}
	}
	defer signal.Stop(sigs)
	go func() { cancel(stopSignal{<-sigs}) }()
	status := explore.Run(ctx, explore.Call{Args: o.Args[1:], MayWrite: true, Color: o.color, Timeline: o.Timeline,
		Width: func() int { return terminalWidth(stdout) }, Scripts: o.Scripts, StoppedBy: stoppedBy, Stdout: stdout, Stderr: stderr})
	if stop, ok := context.Cause(ctx).(stopSignal); ok && stop.sig != os.Interrupt {
		dieBy(stop.sig.(syscall.Signal))
	}
	return status
}

// stopSignal is the signal that stopped a search.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string { return s.sig.String() }

// stoppedBy names what stopped a search: Ctrl-C, or SIGTERM.
// signalName names the end signals as people know them.
var signalName = map[os.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT"}

func stoppedBy(ctx context.Context) string {
	if stop, ok := context.Cause(ctx).(stopSignal); ok && stop.sig != os.Interrupt {
		return signalName[stop.sig]
	}
	return "Ctrl-C"
}
