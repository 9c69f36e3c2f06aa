package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/app/testreport"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lang/duration"
	"github.com/locklab/locklab/repl/lang/shell"
)

// isTest reports whether the command line is `locklab test ...` (inside
// the language, `test` stays the shell's).
func isTest(o Options) bool { return !o.HasLine && len(o.Args) >= 1 && o.Args[0] == "test" }

// testOptions are `locklab test`'s own flags.
type testOptions struct {
	paths   []string
	jobs    int
	timeout time.Duration
	run     *regexp.Regexp
	verbose bool
	tap     bool
	json    bool
	junit   string
	update  bool
}

const testUsage = "usage: locklab [-h HOST -p PORT ...] test [-j N] [--timeout DUR] [--run REGEX] [-v] [--tap|--json] [--junit FILE] [--update] [DIR|FILE.lab ...]"

// testHelp is `locklab test --help`.
const testHelp = testUsage + `
Runs every .lab under the folders and files named (the current folder when
none) as a test, each on a fresh embedded Redis (with -h/-p/-u, on that
server, one after another); status 0 only when every lab passed.
  -j N           how many labs run at once (default: one per CPU)
  --timeout DUR  a lab still running after DUR is an ERROR (default 60s)
  --run REGEX    only the labs whose path REGEX matches
  -v             show what each lab printed
  --tap          TAP version 13 on stdout
  --json         one JSON object on stdout
  --junit FILE   also write JUnit XML to FILE
  --update       rewrite the failing expectations to what the run saw
  --help         this text
`

// parseTestFlags reads test's flags, anywhere among the paths.
func parseTestFlags(args []string) (testOptions, error) {
	t := testOptions{jobs: runtime.NumCPU(), timeout: 60 * time.Second}
	for i := 0; i < len(args); i++ {
		flag, value, hasValue := strings.Cut(args[i], "=")
		needValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("test: %s needs a value\n%s", flag, testUsage)
			}
			i++
			return args[i], nil
		}
		var err error
		switch flag {
		case "-v":
			t.verbose = true
		case "--tap":
			t.tap = true
		case "--json":
			t.json = true
		case "--update":
			t.update = true
		case "-j", "--timeout", "--run", "--junit":
			var v string
			if v, err = needValue(); err == nil {
				err = t.set(flag, v)
			}
		default:
			if strings.HasPrefix(args[i], "-") {
				return t, fmt.Errorf("test: unknown flag %s\n%s", args[i], testUsage)
			}
			t.paths = append(t.paths, args[i])
		}
		if err != nil {
			return t, err
		}
	}
	if t.tap && t.json {
		return t, fmt.Errorf("test: --tap or --json, not both\n%s", testUsage)
	}
	return t, nil
}

func (t *testOptions) set(flag, v string) error {
	var err error
	switch flag {
	case "-j":
		t.jobs, err = strconv.Atoi(v)
		if err == nil && t.jobs < 1 {
			err = fmt.Errorf("must be 1 or more")
		}
	case "--timeout":
		t.timeout, err = duration.Flag(flag, v)
	case "--run":
		t.run, err = regexp.Compile(v)
	case "--junit":
		t.junit = v
	}
	if err != nil {
		return fmt.Errorf("test: %s %q: %v\n%s", flag, v, err, testUsage)
	}
	return nil
}

// runTests is `locklab test`: every lab under the paths, each on a fresh
// embedded Redis (or, with -h/-p, the server named, one lab after
// another), in parallel; a report per lab and a summary. Status 0 only
// when every lab passed; 2 for bad flags; 130 after Ctrl-C.
func runTests(o Options, stdout, stderr io.Writer) int {
	if slices.Contains(o.Args[1:], "--help") {
		fmt.Fprint(stdout, testHelp)
		return 0
	}
	t, err := parseTestFlags(o.Args[1:])
	if err != nil {
		fmt.Fprintln(stderr, "locklab:", err)
		return 2
	}
	if o.Flags.Set["host"] || o.Flags.Set["port"] || o.Flags.Set["socket"] {
		t.jobs = 1 // one server: its labs must not see each other's keys
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	results := runLabs(ctx, o, t, findLabs(t))
	return reportTests(ctx, t, results, time.Since(start), stdout, stderr)
}

// findLabs is every .lab file under the paths (the current folder when
// none), in order; a path that is missing or not a lab is a result of
// its own, an error.
func findLabs(t testOptions) []testreport.Result {
	paths := t.paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var labs []testreport.Result
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
			labs = append(labs, testreport.Result{File: p, Status: testreport.Error, Problem: "no such file or folder"})
		case info.IsDir():
			labs = append(labs, labsIn(p)...)
		case filepath.Ext(p) != ".lab":
			labs = append(labs, testreport.Result{File: p, Status: testreport.Error, Problem: "not a .lab file"})
		case !info.Mode().IsRegular():
			labs = append(labs, notRegular(p))
		default:
			labs = append(labs, testreport.Result{File: p})
		}
	}
	return slices.DeleteFunc(labs, func(r testreport.Result) bool {
		return t.run != nil && r.Status == testreport.Pass && !t.run.MatchString(r.File)
	})
}

// notRegular is a path named *.lab that is no file to read (a FIFO, a
// device, a dangling link): opening one could wait for ever.
func notRegular(path string) testreport.Result {
	return testreport.Result{File: path, Status: testreport.Error, Problem: "not a regular file (a FIFO, a device or a broken link)"}
}

// labsIn is the .lab files in dir and its folders (hidden ones left out),
// sorted.
func labsIn(dir string) []testreport.Result {
	var labs []testreport.Result
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			labs = append(labs, testreport.Result{File: path, Status: testreport.Error, Problem: err.Error()})
		case d.IsDir() && path != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && filepath.Ext(path) == ".lab":
			if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
				labs = append(labs, notRegular(path))
			} else {
				labs = append(labs, testreport.Result{File: path})
			}
		}
		return nil
	})
	return labs
}

// runLabs runs the labs still to run (those not already an error), at
// most t.jobs at once, and returns every result in the order found.
func runLabs(ctx context.Context, o Options, t testOptions, labs []testreport.Result) []testreport.Result {
	slots := make(chan struct{}, t.jobs)
	var wg sync.WaitGroup
	for i := range labs {
		if labs[i].Status == testreport.Error {
			continue
		}
		wg.Add(1)
		go func(r *testreport.Result) {
			defer wg.Done()
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				r.Mode, r.Status, r.Problem = "not run", testreport.Error, "stopped by Ctrl-C before it ran"
				return
			}
			*r = runLab(ctx, o, t.timeout, r.File)
			if t.update && r.Status == testreport.Fail && r.Mode == "one run" {
				updateLab(r)
			}
		}(&labs[i])
	}
	wg.Wait()
	return labs
}

// runLab runs one lab, in one run or (with its `# locklab: explore`
// header) in every order, and judges it from its exit status and what it
// printed.
func runLab(ctx context.Context, o Options, timeout time.Duration, file string) testreport.Result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out output.Buffer
	start := time.Now()
	explored, mustFail, flags := labHeader(file)
	r := testreport.Result{File: file, Mode: "one run"}
	var status int
	if explored {
		r.Mode = "every order"
		status = explore.Run(ctx, explore.Call{Args: append(flags, file), Scripts: o.Scripts, Stdout: &out, Stderr: &out})
	} else {
		status = runLabOnce(ctx, o, file, &out)
	}
	r.Elapsed, r.Output = time.Since(start), out.String()
	judge(&r, ctx, status, explored, mustFail, timeout)
	return r
}

// judge sets r's status from how its run ended.
func judge(r *testreport.Result, ctx context.Context, status int, explored, mustFail bool, timeout time.Duration) {
	first := testreport.FirstFailure(r.Output)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.Status, r.Problem = testreport.Error, fmt.Sprintf("did not end within %s (--timeout)", timeout)
	case ctx.Err() != nil:
		r.Status, r.Problem = testreport.Error, "stopped by Ctrl-C"
	case mustFail:
		r.Mode += ", must fail"
		if status != 1 {
			r.Status, r.Problem = testreport.Fail, "held in every order, but this lab must break in some order (expect-fail)"
		}
		if status == 2 {
			r.Status, r.Problem = testreport.Error, testreport.LastLine(r.Output)
		}
	case status == 0:
	case first != "":
		r.Status, r.Problem = testreport.Fail, first
	case explored && status == 1:
		r.Status, r.Problem = testreport.Fail, "failed in some order: "+testreport.LastLine(r.Output)
	default:
		r.Status, r.Problem = testreport.Error, fmt.Sprintf("exit status %d: %s", status, testreport.LastLine(r.Output))
	}
}

// labHeader reads a lab's leading comment lines for `# locklab: explore`
// (its claims must hold in every order), `expect-fail` on that line (it
// must break in some order: a lab that shows a bug), and explore's flags
// after them (--property wrong-owner-del,expect: what breaking means).
func labHeader(file string) (explored, mustFail bool, flags []string) {
	f, err := os.Open(file)
	if err != nil {
		return false, false, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "#")), "locklab: explore"); ok {
			words := strings.Fields(rest)
			mustFail = slices.Contains(words, "expect-fail")
			return true, mustFail, slices.DeleteFunc(words, func(w string) bool { return w == "expect-fail" })
		}
	}
	return false, false, nil
}

// runLabOnce runs file as `locklab FILE` would, on a server of its own
// (the embedded Redis, fresh) or the one named, its output into out.
func runLabOnce(ctx context.Context, o Options, file string, out io.Writer) int {
	in := &input{opts: o, stdin: strings.NewReader(""), stdout: out, stderr: out, runs: map[*shell.Shell]*lab.Run{}}
	in.opts.color, in.opts.Args = false, []string{file}
	target, stop, err := openTarget(&in.opts.Flags)
	if err != nil {
		fmt.Fprintln(out, "locklab:", err)
		return 1
	}
	defer stop()
	in.sessions = session.NewSet(target)
	in.sessions.Use(probe.New().Middleware())
	defer in.sessions.Close()
	defer in.closeShells()
	return in.runFile(ctx, file, nil)
}

// reportTests writes the report in the form asked for, and the JUnit
// file; the status is 0 only when every lab passed.
func reportTests(ctx context.Context, t testOptions, results []testreport.Result, elapsed time.Duration, stdout, stderr io.Writer) int {
	switch {
	case t.tap:
		testreport.TAP(stdout, results)
	case t.json:
		testreport.JSON(stdout, results, elapsed)
	default:
		testreport.Human(stdout, results, elapsed, t.verbose)
	}
	status := 0
	if c := testreport.Count(results); c.Failed+c.Errors > 0 || len(results) == 0 {
		status = 1
	}
	if len(results) == 0 {
		fmt.Fprintln(stderr, "locklab: test: no .lab files found")
	}
	if t.junit != "" {
		if err := writeJUnit(t.junit, results, elapsed); err != nil {
			fmt.Fprintln(stderr, "locklab: test:", err)
			status = 1
		}
	}
	if ctx.Err() != nil {
		return 130
	}
	return status
}

func writeJUnit(file string, results []testreport.Result, elapsed time.Duration) error {
	var b bytes.Buffer
	if err := testreport.JUnit(&b, results, elapsed); err != nil {
		return err
	}
	return output.WriteFile(file, b.Bytes())
}

// updateLab rewrites the failed expectations of a lab that ran once to
// expect what its run saw (for authors, as testscript's -update does; not
// for grading), and says so in its result, with the diff.
func updateLab(r *testreport.Result) {
	seen := testreport.Failures(r.File, r.Output)
	src, err := os.ReadFile(r.File)
	if len(seen) == 0 || err != nil {
		return
	}
	updated, diff, err := testreport.Update(string(src), seen)
	if err == nil && diff != "" {
		err = output.WriteFile(r.File, []byte(updated))
	}
	if err != nil {
		r.Problem += " (not updated: " + err.Error() + ")"
		return
	}
	r.Problem += fmt.Sprintf(" (updated %d expectation(s) to what was seen)", len(seen))
	r.Updated = diff
}
