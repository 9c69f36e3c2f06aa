package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/locklab/locklab/repl/cli/gaps"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/shell"
	"github.com/locklab/locklab/repl/lang/words"
	"github.com/locklab/locklab/repl/term"
)

// interactive is the REPL for a person at a terminal.
func (in *input) interactive(ctx context.Context) int {
	var lacks func(string) bool
	if in.sessions.Target.Embedded {
		lacks = gaps.Embedded
	}
	complete := term.NewCompleter(lacks)
	in.sessions.Observe(complete.Observe)
	hint := complete.Hint
	if !in.opts.color {
		hint = nil // hints are grey text; without colour they would read as typed
	}
	watchEndSignals() // keeps the terminal's state before the REPL changes it, to restore it on SIGTERM
	histFile := historyFile()
	privateFile(histFile)
	tty, stdout, stderr, err := term.NewTerminal(term.TerminalConfig{HistoryFile: histFile, Complete: complete, Hint: hint, Color: in.opts.color})
	if err != nil {
		fmt.Fprintln(in.stderr, "locklab:", err)
		return 1
	}
	defer tty.Close()
	sh, err := in.newShell(stdout, stderr, true, true)
	if err != nil {
		fmt.Fprintln(stderr, "locklab:", err)
		return 1
	}
	main := in.sessions.Get(session.Main)
	in.greet(ctx, main, stdout, stderr)
	prompt := func() string { return term.Prompt(main, in.sessions.Target) }
	ir := newInterrupter()
	defer ir.stop()
	if in.opts.Record != "" {
		if err := in.runs[sh].Record(in.opts.Record); err != nil {
			fmt.Fprintln(stderr, "locklab:", err)
			return 1
		}
		defer in.stopRecording(ctx, sh, main, stderr)
	}
	err = sh.Run(ctx, shell.Source{Lines: tty, Prompt: prompt, OnEntry: ir.set})
	if code := words.ExitCode(err); code != 0 {
		return code // exit N, or quit after a Ctrl-C (130), as in sh
	}
	if err != nil {
		fmt.Fprintln(stderr, "locklab:", err)
		return 1
	}
	return 0
}

// stopRecording ends --record's file with the verdict, as `record stop`
// would, unless the session stopped it itself.
func (in *input) stopRecording(ctx context.Context, sh *shell.Shell, main *session.Session, stderr io.Writer) {
	if file, err := in.runs[sh].StopRecording(ctx, main); err == nil {
		fmt.Fprintf(stderr, "locklab: recorded this session into %s\n", file)
	}
}

// greet prints the banner: where the embedded server listens, so that a
// second terminal can join it; or, for a real server, whether it answers.
func (in *input) greet(ctx context.Context, main *session.Session, stdout, stderr interface{ Write([]byte) (int, error) }) {
	t := in.sessions.Target
	if t.Embedded {
		_, port, _ := net.SplitHostPort(t.Addr)
		fmt.Fprintf(stdout, "locklab: embedded Redis on %s (join it from another terminal: locklab -p %s, or redis-cli -p %s). Type help, or paste a lesson.\n", t.Addr, port, port)
		return
	}
	err := main.Connect(ctx)
	switch {
	case err == nil:
	case session.IsAuthError(err): // AUTH failed: WRONGPASS ..., as redis-cli says
		fmt.Fprintln(stderr, session.Describe(err, t))
		fmt.Fprintln(stderr, "hint: check the credentials (-a/--pass, --user, REDISCLI_AUTH, or the -u URL). Each command tries again.")
	default:
		fmt.Fprintln(stderr, session.Describe(err, t))
		fmt.Fprintln(stderr, "hint: start one with `docker compose up -d`, or run locklab without -h/-p/-u for its embedded Redis. Each command tries again.")
	}
}

// historyFile is LOCKLAB_HISTFILE, or ~/.locklab_history; "" (or
// LOCKLAB_HISTFILE=/dev/null) keeps history in memory only.
func historyFile() string {
	if f, ok := os.LookupEnv("LOCKLAB_HISTFILE"); ok {
		if f == "/dev/null" {
			return ""
		}
		return f
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".locklab_history")
}

// privateFile makes the history file readable by its owner only (0600),
// as redis-cli's is: a new one is created so, an older one is narrowed.
func privateFile(name string) {
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return // readline will say what is wrong with it
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&0o077 != 0 {
		f.Chmod(0o600)
	}
}
