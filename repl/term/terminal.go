package term

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chzyer/readline"

	"github.com/locklab/locklab/repl/lang/lines"
)

// Terminal reads lines for a person at a terminal (a shell.LineReader).
type Terminal struct {
	rl      *readline.Instance
	prompt  string // the prompt shown now, for the hint's room on the line
	restore func() // gives the terminal its flags back (see keepTypeahead)
}

// TerminalConfig is what the terminal needs besides the tty itself.
type TerminalConfig struct {
	HistoryFile string // "" keeps history in memory only
	Complete    readline.AutoCompleter
	Hint        func(line string) string // grey text shown after the cursor; nil: none
	Color       bool                     // colour the line as it is typed (see Paint)
}

// NewTerminal opens readline on the process's terminal.
func NewTerminal(cfg TerminalConfig) (*Terminal, io.Writer, io.Writer, error) {
	t := &Terminal{}
	rl, err := readline.NewEx(&readline.Config{
		HistoryFile:            cfg.HistoryFile,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           cfg.Complete,
		Painter:                t.painter(cfg.Hint, cfg.Color),
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		FuncFilterInputRune:    t.interruptClosesMenus,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	t.rl = rl
	t.restore = keepTypeahead(os.Stdin)
	return t, rl.Stdout(), rl.Stderr(), nil
}

// interruptClosesMenus makes Ctrl-C drop the line whatever is open on
// it, as bash does: readline alone closes a completion menu or a history
// search and keeps the line, so that the next word typed is glued to the
// half-word the menu was for ("SE", Tab, Ctrl-C, "PING" sent SEPING). It
// runs on readline's own loop, before the key is handled.
func (t *Terminal) interruptClosesMenus(r rune) (rune, bool) {
	if r != readline.CharInterrupt || t.rl == nil {
		return r, true
	}
	if op := t.rl.Operation; op.IsInCompleteMode() {
		op.ExitCompleteMode(false)
	} else if op.IsSearchMode() {
		op.ExitSearchMode(false)
	}
	return r, true
}

// ReadLine reads one line; Ctrl-C while typing gives lines.ErrInterrupt,
// Ctrl-D on an empty line io.EOF. A multi-line entry recalled from the
// history comes as one line, each of its line breaks a LineBreak: they
// are line breaks again.
func (t *Terminal) ReadLine(prompt string) (string, error) {
	t.prompt = prompt
	t.rl.SetPrompt(prompt)
	line, err := t.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		err = lines.ErrInterrupt
	}
	return strings.ReplaceAll(line, LineBreak, "\n"), err
}

// Remember saves an entry in the history (readline's auto-save is off:
// the shell calls it once the entry ran, and never for one that sent a
// secret), unless its text may hold one (see HistoryLine). A multi-line
// entry is saved as one line, so it comes back whole, and is redrawn as
// one line when recalled.
func (t *Terminal) Remember(entry string) {
	if line, ok := HistoryLine(entry); ok {
		t.rl.SaveHistory(line)
	}
}

// Close restores the terminal. readline's Close can hang when input (a
// Ctrl-D) arrived while a command ran (chzyer/readline#217), so it gets a
// moment and no more: locklab is leaving anyway.
func (t *Terminal) Close() error {
	defer t.restore()
	done := make(chan error, 1)
	go func() { done <- t.rl.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(300 * time.Millisecond):
		return nil
	}
}

// painter colours the line as it is typed (with colour), and draws
// hint(line) in grey after the text typed, when the cursor is at the end
// of the line (and Enter was not pressed), cut to what fits on the line
// (a hint that wrapped would leave debris when the line is redrawn).
func (t *Terminal) painter(hint func(string) string, color bool) readline.Painter {
	if hint == nil && !color {
		return nil
	}
	return painterFunc(func(line []rune, pos int) []rune {
		shown := line
		if color {
			shown = Paint(line)
		}
		if hint == nil || pos != len(line) || len(line) > 0 && line[len(line)-1] == '\n' {
			return shown // not at the end; or Enter's last drawing, which must leave nothing behind
		}
		room := readline.GetScreenWidth() - utf8.RuneCountInString(t.prompt) - len(line) - 2
		h := []rune(hint(string(line)))
		if len(h) == 0 || room < 8 {
			return shown
		}
		if !strings.HasSuffix(string(line), " ") {
			h = append([]rune{' '}, h...)
		}
		if len(h) > room {
			h = append(h[:room-1], '…')
		}
		// Grey, then back to where the cursor belongs.
		painted := fmt.Sprintf("\x1b[90m%s\x1b[0m\x1b[%dD", string(h), len(h))
		return append(append([]rune{}, shown...), []rune(painted)...)
	})
}

type painterFunc func(line []rune, pos int) []rune

func (f painterFunc) Paint(line []rune, pos int) []rune { return f(line, pos) }
