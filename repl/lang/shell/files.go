package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/labfs"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/words"
)

// runScript reads a script the lab was given (see labfs) and runs it in
// the same restricted language, with args as $1, $2, ... Like a child
// shell, it has its own variables; its output goes where the calling
// command's goes. Run from the prompt, it is a run of its own, as
// `locklab FILE` is: its own line numbers, its verdict and the summary of
// its expectations.
func (s *Shell) runScript(ctx context.Context, e *env, path string, args []string) error {
	if ext := filepath.Ext(path); ext != ".lab" && ext != ".sh" {
		return &words.Error{Status: 127, Msg: fmt.Sprintf("%s: not a lab command (only .lab and .sh scripts run here; host programs never do)", path)}
	}
	depth, _ := ctx.Value(scriptDepthKey{}).(int)
	if depth >= MaxScriptDepth {
		return &words.Error{Status: 1, Msg: fmt.Sprintf("%s: scripts running scripts %d deep: a script that runs itself with no end?", path, MaxScriptDepth)}
	}
	ctx = context.WithValue(ctx, scriptDepthKey{}, depth+1)
	data, err := s.readScript(e, path)
	if err != nil {
		return &words.Error{Status: 127, Msg: fmt.Sprintf("%s: %s", path, fileProblem(err))}
	}
	r, err := s.newRunner(e.hc.Stdout, e.hc.Stderr, e.Session(), args...)
	if err != nil {
		return err
	}
	s.seedRandom(r, e.hc.Env.Get(jobs.IDVar).String())
	inScript := ctx.Value(inScriptKey{}) != nil
	top := !inScript && e.Session() == session.Main
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
	if !errors.As(err, &perr) {
		return err
	}
	if !inScript { // a syntax error or a typo, found before it ran
		return &words.Error{Status: 2, Msg: perr.Error()}
	}
	// A script's output can be captured ($(run x.lab 2>&1)): what a file
	// says of its own words goes to the terminal only, never into the
	// language's values.
	_, terminal := s.out.Writers(e.Session())
	fmt.Fprintln(terminal, "locklab: "+perr.Error())
	return &words.Error{Status: 2}
}

// MaxScriptDepth is how deep scripts may run one another (`run x.lab` in
// a script run by another): a script that runs itself stops at once with
// a message, where it ran on, 570 scripts deeper a second, until the
// memory ran out. As MaxDepth bounds functions, far above what a lab
// needs.
const MaxScriptDepth = 100

// scriptDepthKey holds, in a command's context, how many scripts deep it
// runs.
type scriptDepthKey struct{}

// readScript reads a script through the view; one the folder lacks is
// one of the lab's own (scripts/), said once.
func (s *Shell) readScript(e *env, path string) ([]byte, error) {
	data, own, err := s.view.ReadScript(path)
	if err == nil && own != "" && !s.said(own) {
		fmt.Fprintf(e.hc.Stderr, "locklab: %s is not in this folder: running the lab's own scripts/%s\n", path, own)
	}
	return data, err
}

// readScriptText reads a script a word names (explore's), through the view:
// its errors say what is wrong, never what the file holds.
func (s *Shell) readScriptText(path string) ([]byte, error) {
	data, _, err := s.view.ReadScript(path)
	if err != nil {
		return nil, errors.New(path + ": " + fileProblem(err))
	}
	return data, nil
}

func fileProblem(err error) string {
	switch {
	case errors.Is(err, labfs.ErrNotLabFile):
		return "no such lab script (a lab runs the .lab and .sh files of the folder it was given, by their path from there)"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file (paths are relative to the folder locklab started in)"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, labfs.ErrNotRegular):
		return labfs.ErrNotRegular.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
