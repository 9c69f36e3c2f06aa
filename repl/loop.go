package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/chzyer/readline"

	"github.com/locklab/locklab/repl/shell"
)

// continuationPrompt is shown while an entry is incomplete.
const continuationPrompt = "> "

// Loop reads entries from lr and runs them in sh until end of input,
// `exit` or `quit`. prompt is asked for before each entry. Errors go to
// stderr and never end the loop: a typo, a refused command or a Redis that
// is down leaves the REPL as it was.
func Loop(ctx context.Context, lr LineReader, sh *shell.Shell, prompt func() string, stderr io.Writer) error {
	for {
		entry, err := readEntry(lr, prompt())
		if errors.Is(err, readline.ErrInterrupt) {
			continue // Ctrl-C while typing: drop the line, keep going
		}
		if err == io.EOF {
			return runLast(ctx, sh, entry, stderr)
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(entry) == "" {
			continue
		}
		lr.Remember(entry)
		// A cancelled run also reports Exited: only `exit` ends the loop.
		if err := runOne(ctx, sh, entry, stderr); sh.Exited() && !errors.Is(err, context.Canceled) {
			return nil
		}
	}
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

// runLast runs what was left when input ended: an entry cut short by the
// end of a file is run anyway, so that its syntax error is reported.
func runLast(ctx context.Context, sh *shell.Shell, entry string, stderr io.Writer) error {
	if strings.TrimSpace(entry) != "" {
		runOne(ctx, sh, entry, stderr)
	}
	return nil
}

// runOne runs one entry with its own context, which Ctrl-C cancels.
// Background jobs the entry starts share it, so it is cancelled only by
// Ctrl-C, never when the entry returns.
func runOne(parent context.Context, sh *shell.Shell, entry string, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(parent)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-interrupts:
			cancel()
		case <-done:
		}
	}()
	err := sh.RunEntry(ctx, entry)
	close(done)
	signal.Stop(interrupts)
	if msg := shell.Describe(err); msg != "" {
		fmt.Fprintln(stderr, msg)
	}
	return err
}
