package app

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"time"
)

// interrupter turns Ctrl-C (SIGINT) into cancelling the running entry.
type interrupter struct {
	signals chan os.Signal
	mu      sync.Mutex
	cancel  context.CancelFunc
}

func newInterrupter() *interrupter {
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
// default does. When locklab was started with SIGINT ignored (a
// background job of a non-interactive shell), it stays ignored.
func (in *input) interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	if signal.Ignored(os.Interrupt) {
		return ctx, cancel
	}
	ir := newInterrupter()
	ir.set(func() {
		in.interrupted.Store(true)
		signal.Reset(os.Interrupt) // the next Ctrl-C: the default, the end
		cancel()
	})
	return ctx, func() {
		ir.stop()
		cancel()
	}
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
