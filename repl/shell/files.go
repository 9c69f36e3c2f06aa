package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/locklab/locklab/repl/lines"
	"github.com/locklab/locklab/repl/session"
	"github.com/locklab/locklab/repl/words"
	"mvdan.cc/sh/v3/syntax"
)

// runScript reads a script file relative to the current directory and
// runs it in the same restricted language, with args as $1, $2, ...
// Like a child shell, it has its own variables; its output goes where the
// calling command's goes. Run from the prompt, it is a run of its own, as
// `locklab FILE` is: its own line numbers, its verdict and the summary of
// its expectations.
func (s *Shell) runScript(ctx context.Context, e *env, path string, args []string) error {
	if ext := filepath.Ext(path); ext != ".lab" && ext != ".sh" {
		return &words.Error{Status: 127, Msg: fmt.Sprintf("%s: not a lab command (only .lab and .sh scripts run here; host programs never do)", path)}
	}
	data, err := s.readScript(e, path)
	if err != nil {
		return &words.Error{Status: 127, Msg: fmt.Sprintf("%s: %s", path, fileProblem(err))}
	}
	r, err := s.newRunner(e.hc.Stdout, e.hc.Stderr, e.Session(), args...)
	if err != nil {
		return err
	}
	top := ctx.Value(inScriptKey{}) == nil && e.Session() == session.Main
	src := Source{Lines: lines.From(bytes.NewReader(data)), Name: path, Args: args, Whole: true, Precheck: true}
	if top {
		src.Summary = path
	}
	// The script's commands follow its own session (and its jobs theirs),
	// not an @NAME prefix that is already resolved into that session.
	sc := nested
	if top {
		sc = ownRun
	}
	err = s.run(context.WithValue(ctx, sessionKey{}, nil), r, src, sc)
	var perr syntax.ParseError
	if errors.As(err, &perr) {
		return &words.Error{Status: 2, Msg: perr.Error()} // a syntax error or a typo, found before it ran
	}
	return err
}

// readScript reads a script relative to the folder locklab started in;
// one the folder lacks is one of the lab's own (scripts/), said once.
func (s *Shell) readScript(e *env, path string) ([]byte, error) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(s.cfg.Dir, path)
	}
	data, err := os.ReadFile(full)
	own := s.files().OwnScript(full)
	if !errors.Is(err, fs.ErrNotExist) || own == "" {
		return data, err
	}
	if !s.said(own) {
		fmt.Fprintf(e.hc.Stderr, "locklab: %s is not in this folder: running the lab's own scripts/%s\n", path, own)
	}
	return fs.ReadFile(s.cfg.Scripts, own)
}

func fileProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file (paths are relative to the directory locklab started in)"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
