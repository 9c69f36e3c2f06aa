package app

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/lab/load"
)

// interrupter turns Ctrl-C (SIGINT) into cancelling the running entry.
type interrupter struct {
	signals chan os.Signal
	mu      sync.Mutex
	cancel  context.CancelFunc
}

func newInterrupter() *interrupter {
	watchEndSignals()
	ir := &interrupter{signals: make(chan os.Signal, 1)}
	signal.Notify(ir.signals, os.Interrupt)
	go func() {
		for range ir.signals {
			ir.mu.Lock()
			if ir.cancel != nil {
				ir.cancel()
			}
			ir.mu.Unlock()
		}
	}()
	return ir
}

func (ir *interrupter) set(cancel context.CancelFunc) {
	ir.mu.Lock()
	ir.cancel = cancel
	ir.mu.Unlock()
}

func (ir *interrupter) stop() {
	signal.Stop(ir.signals)
	close(ir.signals)
}

// interruptible is ctx, cancelled by the first Ctrl-C (SIGINT), so that a
// script, -c LINE or a command such as `locklab load ...` stops its jobs
// and says what ran. A second Ctrl-C ends the process at once, as the
// default does, once the servers the lab started are stopped
// (endOnNextInterrupt). When locklab was started with SIGINT ignored (a
// background job of a non-interactive shell), it stays ignored.
func (in *input) interruptible(parent context.Context) (context.Context, func()) {
	watchEndSignals()
	ctx, cancel := context.WithCancel(parent)
	if signal.Ignored(os.Interrupt) {
		return ctx, cancel
	}
	ir := newInterrupter()
	ir.set(func() {
		in.interrupted.Store(true)
		endOnNextInterrupt()
		cancel()
	})
	return ctx, func() {
		ir.stop()
		cancel()
	}
}

// endOnNextInterrupt makes the next Ctrl-C end locklab as an end signal
// does: the servers of the clusters and Redlock labs (and those still
// starting) are stopped first, then the process ends by SIGINT.
func endOnNextInterrupt() {
	signal.Reset(os.Interrupt)
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	go func() {
		<-c
		server.StopAllSlots()
		dieBy(syscall.SIGINT)
	}()
}

// endByInterrupt ends the process by SIGINT when a Ctrl-C stopped it, once
// everything is cleaned up and the summary printed: a shell that runs
// locklab in a loop then sees the interrupt and stops, as it does for
// redis-cli. Where a process cannot signal itself, the status says 130.
func (in *input) endByInterrupt() {
	if !in.interrupted.Load() {
		return
	}
	signal.Reset(os.Interrupt)
	if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(os.Interrupt) == nil {
		time.Sleep(time.Second) // the signal ends the process meanwhile
	}
}

// endSignals end locklab, as they end redis-cli, but first a load run
// stops and deletes its keys, as after Ctrl-C, and the servers `cluster
// up` and `redlock up --real` started stop and their temporary
// directories go: SIGTERM (kill), SIGHUP (the terminal closed) and
// SIGQUIT (Ctrl-\).
var endSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// watchEndSignals sets up, once, what the end signals do: stop the load
// runs, which delete their keys (load.StopAll), stop the clusters and the
// redlock nodes, also those still starting (server.StopAllSlots), give
// the terminal back as it was, then end by the signal. A signal locklab
// was started with ignored (SIGHUP under nohup) stays ignored.
var watchEndSignals = sync.OnceFunc(func() {
	var watched []os.Signal
	for _, sig := range endSignals {
		if !signal.Ignored(sig) {
			watched = append(watched, sig)
		}
	}
	if len(watched) == 0 {
		return
	}
	restore := terminalRestorer()
	c := make(chan os.Signal, 1)
	signal.Notify(c, watched...)
	go func() {
		sig := (<-c).(syscall.Signal)
		ending.Store(true)
		load.StopAll() // first, while the servers its keys are on still run
		server.StopAllSlots()
		restore()
		dieBy(sig)
	}()
})

// ending is set once an end signal came. Its handler ends the process by
// that signal when it has stopped what runs, and a run it stopped (a load
// run) may return meanwhile: Main must not end the process first, with
// the status of a run the signal cut (awaitEndSignal).
var ending atomic.Bool

// endSignalWait bounds how long Main waits for an end signal's handler:
// the load runs' cleanup (load.StopAll, about a second at most), then the
// clusters' and Redlock nodes' stop.
const endSignalWait = 10 * time.Second

// awaitEndSignal waits, when an end signal came, for its handler to end
// the process by that signal, so that the shell sees the signal.
func awaitEndSignal() {
	if ending.Load() {
		time.Sleep(endSignalWait)
	}
}

// terminalRestorer saves the terminal's state, if stdin is one, and
// returns what puts it back (a signal may come while the REPL reads a
// line, with the terminal raw).
func terminalRestorer() func() {
	fd := int(os.Stdin.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		return func() {}
	}
	return func() { term.Restore(fd, state) }
}
