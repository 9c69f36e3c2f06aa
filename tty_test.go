package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdTTY is the testscript command `tty FILE [ARGS...]`: it runs
// `locklab ARGS...` on a pseudo-terminal of its own (stdin, stdout and
// stderr; 200 columns, 50 rows) and types FILE into it as a person
// would, step by step, one step a line:
//
//	type TEXT      TEXT, then Enter
//	send TEXT      TEXT alone, no Enter
//	key NAME       up, down, enter, tab, ctrl-c or ctrl-d
//	sleep DUR      a pause (time to think, or for a command to start)
//	expect REGEXP  wait (at most 20s) until the screen, past what the last
//	               expect matched, shows REGEXP
//	within DUR REGEXP  the same, at most DUR: what must come at once
//
// Unlike `ttyin`, which writes its whole input at once, this types while
// commands run, as a person does. After the last step locklab must end
// (type quit) within 20s. The stdout is what the terminal showed, with
// its control sequences and carriage returns removed; a status other
// than 0 is said on stderr ("locklab exited 130").
func cmdTTY(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: tty FILE [ARGS...]")
	}
	steps := ts.ReadFile(args[0])
	t, err := startTTY(ts, args[1:])
	ts.Check(err)
	defer t.ctrl.Close()
	sc := bufio.NewScanner(strings.NewReader(steps))
	for n := 1; sc.Scan(); n++ {
		if err := t.step(sc.Text()); err != nil {
			t.cmd.Process.Kill()
			ts.Fatalf("%s:%d: %v\nscreen:\n%s", args[0], n, err, t.screen())
		}
	}
	err = t.wait(20 * time.Second)
	fmt.Fprint(ts.Stdout(), t.screen())
	if exit, ok := err.(*exec.ExitError); ok {
		fmt.Fprintf(ts.Stderr(), "locklab exited %d\n", exit.ExitCode()) // for `! tty` to check
	}
	switch {
	case err == errStillRunning:
		ts.Fatalf("locklab still runs 20s after the last step")
	case err != nil && !neg:
		ts.Fatalf("locklab: %v", err)
	case err == nil && neg:
		ts.Fatalf("locklab succeeded unexpectedly")
	}
}

// terminal is locklab running on a pseudo-terminal, and what it showed.
type terminal struct {
	ctrl *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	seen int           // how much of screen() the last expect consumed
	done chan error    // locklab's end
	read chan struct{} // closed when the terminal is closed on locklab's side
}

// ttyEnv are the variables the scripts set that locklab reads.
var ttyEnv = []string{"PATH", "HOME", "TMPDIR", "WORK", "LOCKLAB_HISTFILE", "NO_COLOR", "REDIS_PORT", "SCRIPTS"}

// startTTY starts locklab on a new pseudo-terminal, its controlling
// terminal, so that Ctrl-C typed there is a SIGINT, as at a real one.
func startTTY(ts *testscript.TestScript, args []string) (*terminal, error) {
	ctrl, tty, err := openPTY(50, 200)
	if err != nil {
		return nil, err
	}
	defer tty.Close()
	cmd := exec.Command("locklab", args...)
	cmd.Path = lookPath(ts.Getenv("PATH"), "locklab")
	cmd.Dir = ts.Getenv("WORK")
	cmd.Env = []string{"TERM=xterm"}
	for _, k := range ttyEnv {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = ttyAttr()
	if err := cmd.Start(); err != nil {
		ctrl.Close()
		return nil, err
	}
	t := &terminal{ctrl: ctrl, cmd: cmd, done: make(chan error, 1), read: make(chan struct{})}
	go t.keep()
	go func() { t.done <- cmd.Wait() }()
	return t, nil
}

// lookPath finds name in path (testscript's PATH, which holds the test
// binary as locklab), or leaves it to exec to complain.
func lookPath(path, name string) string {
	for _, dir := range strings.Split(path, ":") {
		if st, err := os.Stat(dir + "/" + name); err == nil && !st.IsDir() {
			return dir + "/" + name
		}
	}
	return name
}

// keep keeps what the terminal shows, until locklab has closed it.
func (t *terminal) keep() {
	defer close(t.read)
	buf := make([]byte, 4096)
	for {
		n, err := t.ctrl.Read(buf)
		t.mu.Lock()
		t.out.Write(buf[:n])
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// controls are a terminal's control sequences (colour, cursor moves,
// line erasing), a bell, and carriage returns.
var controls = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\a|\r")

// screen is what the terminal showed so far, as text.
func (t *terminal) screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return controls.ReplaceAllString(t.out.String(), "")
}

// keys are the keys `key` can press.
var keys = map[string]string{"up": "\x1b[A", "down": "\x1b[B", "enter": "\r", "tab": "\t", "ctrl-c": "\x03", "ctrl-d": "\x04"}

// step runs one line of a tty script.
func (t *terminal) step(line string) error {
	verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	var err error
	switch verb {
	case "", "#":
	case "type":
		_, err = t.ctrl.WriteString(arg + "\r")
	case "send":
		_, err = t.ctrl.WriteString(arg)
	case "key":
		if keys[arg] == "" {
			return fmt.Errorf("unknown key %q", arg)
		}
		_, err = t.ctrl.WriteString(keys[arg])
	case "sleep":
		var d time.Duration
		if d, err = time.ParseDuration(arg); err == nil {
			time.Sleep(d)
		}
	case "expect":
		err = t.expect(arg, 20*time.Second)
	case "within":
		limit, pattern, _ := strings.Cut(arg, " ")
		var d time.Duration
		if d, err = time.ParseDuration(limit); err == nil {
			err = t.expect(pattern, d)
		}
	default:
		err = fmt.Errorf("unknown step %q", verb)
	}
	return err
}

// expect waits until the screen, past what the last expect matched,
// matches pattern (unquoted as a testscript argument would be: '...').
func (t *terminal) expect(pattern string, limit time.Duration) error {
	re, err := regexp.Compile("(?m)" + strings.Trim(pattern, "'"))
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		s := t.screen()
		if t.seen > len(s) {
			t.seen = len(s)
		}
		if loc := re.FindStringIndex(s[t.seen:]); loc != nil {
			t.seen += loc[1]
			return nil
		}
	}
	return fmt.Errorf("expect %s: not shown within %v", pattern, limit)
}

var errStillRunning = fmt.Errorf("still running")

// wait waits for locklab to end, at most limit, and for its last output.
func (t *terminal) wait(limit time.Duration) error {
	select {
	case err := <-t.done:
		select { // what it printed last
		case <-t.read:
		case <-time.After(2 * time.Second):
		}
		return err
	case <-time.After(limit):
		t.cmd.Process.Kill()
		<-t.done
		return errStillRunning
	}
}
