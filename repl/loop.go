package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/chzyer/readline"

	"github.com/locklab/locklab/repl/shell"
)

// continuationPrompt is shown while an entry is incomplete.
const continuationPrompt = "> "

// maxBatch bounds how many plain commands from a pipe go in one pipeline.
const maxBatch = 1000

// Loop reads entries from lr and runs them in sh until end of input,
// `exit` or `quit`. prompt is asked for before each entry. Errors go to
// stderr and never end the loop: a typo, a refused command or a Redis that
// is down leaves the REPL as it was.
//
// From a pipe, consecutive plain Redis commands already read are sent as
// one pipeline (see shell.Plain); output order is kept.
func Loop(ctx context.Context, lr LineReader, sh *shell.Shell, prompt func() string, stderr io.Writer) error {
	ir := newInterrupter()
	defer ir.stop()
	l := &loop{sh: sh, stderr: stderr, ir: ir, line: 1}
	for {
		entry, err := readEntry(lr, prompt())
		l.entryLine = l.line
		l.line += strings.Count(entry, "\n")
		if errors.Is(err, readline.ErrInterrupt) {
			continue // Ctrl-C while typing: drop the line, keep going
		}
		if err != nil && err != io.EOF {
			return err
		}
		if strings.TrimSpace(entry) != "" {
			lr.Remember(entry)
			if l.handle(ctx, entry, lr) {
				return nil
			}
		}
		if err == io.EOF {
			l.flush(ctx)
			return nil
		}
	}
}

// loop is the state of one Loop: the batch of plain commands waiting.
type loop struct {
	sh        *shell.Shell
	stderr    io.Writer
	ir        *interrupter
	batch     [][]string
	line      int // the input's line number the next entry starts on
	entryLine int // ... and the one the current entry started on
}

// handle runs or batches one entry and says whether the loop must end.
func (l *loop) handle(ctx context.Context, entry string, lr LineReader) bool {
	r, batching := lr.(interface{ Ready() bool })
	if args, ok := plainIf(batching, entry); ok {
		l.batch = append(l.batch, args)
		if !r.Ready() || len(l.batch) >= maxBatch {
			l.flush(ctx)
		}
		return false
	}
	l.flush(ctx)
	err := l.run(ctx, func(ctx context.Context) error { return l.sh.RunEntryAt(ctx, entry, l.entryLine) })
	// A cancelled run also reports Exited: only `exit` ends the loop.
	return l.sh.Exited() && !errors.Is(err, context.Canceled)
}

func plainIf(batching bool, entry string) ([]string, bool) {
	if !batching {
		return nil, false
	}
	return shell.Plain(entry)
}

func (l *loop) flush(ctx context.Context) {
	if len(l.batch) == 0 {
		return
	}
	batch := l.batch
	l.batch = nil
	l.run(ctx, func(ctx context.Context) error { return l.sh.RunBatch(ctx, batch) })
}

// run runs f with its own context, which Ctrl-C cancels. Background jobs
// share it, so it is cancelled only by Ctrl-C, never when f returns.
func (l *loop) run(parent context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithCancel(parent)
	l.ir.set(cancel)
	err := f(ctx)
	l.ir.set(nil)
	if msg := shell.Describe(err); msg != "" {
		fmt.Fprintln(l.stderr, msg)
	}
	return err
}

// readEntry reads lines until the entry is complete.
func readEntry(lr LineReader, prompt string) (string, error) {
	var entry strings.Builder
	for {
		line, err := lr.ReadLine(prompt)
		if err != nil {
			return entry.String(), err
		}
		entry.WriteString(line)
		entry.WriteByte('\n')
		if !shell.Incomplete(entry.String()) {
			return entry.String(), nil
		}
		prompt = continuationPrompt
	}
}

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
