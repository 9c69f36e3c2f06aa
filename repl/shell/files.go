package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"mvdan.cc/sh/v3/interp"
)

// open is the interpreter's only way to files: `> /dev/null` works, every
// other redirection is refused. (Scripts are read by runScript, not here.)
func (s *Shell) open(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if path == "/dev/null" {
		return devNull{}, nil
	}
	if name, stderr, ok := sessionFile(path); ok {
		out, errOut := s.writers.get(name)
		if stderr {
			return errOut, nil
		}
		return out, nil
	}
	// interp prints an *os.PathError and sets $? to 1; any other error
	// type would halt the whole runner.
	return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("files are not available in the lab (only /dev/null)")}
}

type devNull struct{}

func (devNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (devNull) Write(p []byte) (int, error) { return len(p), nil }
func (devNull) Close() error                { return nil }

// runScriptWord is `run FILE ARGS`, `source FILE`, `bash FILE` or `sh FILE`.
func (s *Shell) runScriptWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) < 2 || args[1] == "-c" {
		fmt.Fprintf(hc.Stderr, "locklab: usage: %s FILE [ARG ...]   (runs a .lab or .sh script in the lab)\n", displayName(args[0]))
		return interp.ExitStatus(2)
	}
	return s.runScript(ctx, hc, args[1], args[2:])
}

func displayName(word string) string {
	if word == runWord {
		return "source"
	}
	return word
}

// runScript reads a script file relative to the current directory and
// runs it in the same restricted language, with args as $1, $2, ...
// Like a child shell, it has its own variables; its output goes where the
// calling command's goes.
func (s *Shell) runScript(ctx context.Context, hc interp.HandlerContext, path string, args []string) error {
	if ext := filepath.Ext(path); ext != ".lab" && ext != ".sh" {
		fmt.Fprintf(hc.Stderr, "locklab: %s: not a lab command (only .lab and .sh scripts run here; host programs never do)\n", path)
		return interp.ExitStatus(127)
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(hc.Dir, path)
	}
	src, err := os.ReadFile(full)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "locklab: %s: %s\n", path, fileProblem(err))
		return interp.ExitStatus(127)
	}
	f, err := Parse(Normalize(string(src)), path)
	if err != nil {
		fmt.Fprintln(hc.Stderr, Describe(err))
		return interp.ExitStatus(2)
	}
	r, err := s.newRunner(hc.Stdout, hc.Stderr, sessionOf(ctx, hc), args...)
	if err != nil {
		return err
	}
	if err := s.precheck(f, path); err != nil {
		fmt.Fprintln(hc.Stderr, Describe(err))
		return interp.ExitStatus(2)
	}
	s.nameJobs(f)
	// The script's commands follow its own session (and its jobs theirs),
	// not an @NAME prefix that is already resolved into that session.
	ctx = context.WithValue(context.WithValue(ctx, sessionKey{}, nil), fileKey{}, path)
	return r.Run(ctx, f)
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
