package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lab/scripts"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/labfs"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/shell"
	"github.com/locklab/locklab/repl/lang/words"
)

// Options is what the command line asked for.
type Options struct {
	Flags       cliflags.Options // redis-cli's options
	Line        string           // -c LINE
	HasLine     bool
	Args        []string // a file and its arguments, or a Redis command
	NoColor     bool
	Notes       string // "on" or "off" to force annotations; "" for the default
	Gutter      string // "on" or "off" to force session gutters; "" for: on a terminal
	Timeline    bool   // draw the run after a script (or -c LINE)
	Mermaid     string // ... and write it to this file as Mermaid
	SVG         string // ... and as SVG
	Help        bool
	Version     bool   // -v/--version: print the version and leave
	Record      string // --record FILE.lab: record the REPL session as a lab
	AuthWarning bool   // a password was given on the command line
	// ShareCPUs leaves a redis-server on this machine a CPU (see
	// cpusFor): set by the program itself, never by tests that run
	// locklab in their own process.
	ShareCPUs bool
	Scripts   fs.FS // the lab's own scripts (scripts/), for `make` and ./book_no_lock.sh from anywhere
	// Sandbox restricts the process with Landlock once set-up is done
	// (see Confine): set when locklab is a process of its own, never by
	// tests that run locklab in theirs (it lasts for the whole process).
	Sandbox bool
	color   bool // decided in Main
}

// Main runs locklab as the options say and returns the exit status.
func Main(o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	if o.AuthWarning {
		fmt.Fprintln(stderr, "Warning: Using a password with '-a' or '-u' option on the command line interface may not be safe.")
	}
	session.SilenceDriverLog()
	in := &input{opts: o, stdin: stdin, stdout: stdout, stderr: stderr, runs: map[*shell.Shell]*lab.Run{}}
	defer awaitEndSignal()    // a signal that ends locklab ends it, not a status
	defer in.endByInterrupt() // last, once everything below is cleaned up
	in.opts.color = useColor(o.NoColor, stdout)
	installWords(in.opts)
	if isExplore(o) {
		confineIf(o, stdin, stderr)
		return runExplore(o, stdout, stderr) // servers of its own, one per schedule
	}
	if isTest(o) {
		confineIf(o, stdin, stderr)
		return runTests(o, stdout, stderr) // a server per lab
	}
	target, stop, err := openTarget(&in.opts.Flags)
	if err != nil {
		fmt.Fprintln(stderr, "locklab:", err)
		return 1
	}
	defer stop()
	confineIf(o, stdin, stderr) // the target is open (--cacert read, the embedded server listening)
	// One command runs nothing beside it: no CPUs to share (and resizing
	// stops the world).
	if o.ShareCPUs && !isOneCommand(o) {
		shareCPUs(target, os.Getenv("GOMAXPROCS") != "")
	}
	in.sessions = session.NewSet(target)
	if o.Notes != "off" { // --no-notes stands in for redis-cli: nothing but the user's commands goes out
		in.sessions.Use(probe.New().Middleware())
	}
	defer in.sessions.Close()
	defer in.closeShells() // a failover lab's servers stop with locklab
	return in.run(context.Background())
}

// installWords gives the language every feature's words: the lab's (the
// lesson's checks, load, failover, Redlock, the macros), then explore's.
func installWords(o Options) {
	words.Install(lab.Words(), explore.Words(explore.WordOptions{Color: o.color, Scripts: o.Scripts}))
}

// openTarget starts the embedded Redis, unless a server was named.
func openTarget(f *cliflags.Options) (session.Target, func(), error) {
	if f.Set["host"] || f.Set["port"] || f.Set["socket"] {
		t, err := session.NewTarget(f, session.Target{Network: "tcp", Addr: "127.0.0.1:6379"})
		return t, func() {}, err
	}
	e, err := server.StartEmbedded()
	if err != nil {
		return session.Target{}, nil, err
	}
	base := session.Target{Network: "tcp", Addr: e.Addr(), Embedded: true}
	t, err := session.NewTarget(f, base)
	return t, e.Close, err
}

// useColor is whether to colour: only on a terminal, never with NO_COLOR,
// TERM=dumb or --no-color. The answer is passed down, never put in
// fatih/color's global switch (which only ever looks at os.Stdout).
func useColor(noColor bool, stdout io.Writer) bool {
	return !noColor && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(stdout)
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// input is one run of locklab: where its lines come from and where its
// output goes.
type input struct {
	opts           Options
	stdin          io.Reader
	stdout, stderr io.Writer
	sessions       *session.Set
	shells         []*shell.Shell
	runs           map[*shell.Shell]*lab.Run // each shell's observer, for its pictures
	lastRun        *lab.Run                  // the one observe made last
	interrupted    atomic.Bool               // a Ctrl-C stopped a script, -c LINE or a command
}

func (in *input) closeShells() {
	for _, sh := range in.shells {
		sh.Close()
	}
}

func (in *input) run(ctx context.Context) int {
	repl := !in.opts.HasLine && len(in.opts.Args) == 0 && isTerminal(in.stdin)
	if in.opts.Record != "" && !repl {
		fmt.Fprintln(in.stderr, "locklab: --record records a REPL session, typed at a terminal; a script is a lab already")
		return 2
	}
	if in.opts.Flags.Pipe {
		return in.pipe(ctx)
	}
	if !in.opts.HasLine && len(in.opts.Args) == 0 {
		if isTerminal(in.stdin) {
			return in.interactive(ctx) // the REPL and piped input take Ctrl-C per entry
		}
		if picture := in.picture(); picture != "" {
			fmt.Fprintf(in.stderr, "locklab: %s: a run is drawn after a script or -c LINE, not piped input (put the lines in a .lab file, or end them with a `timeline` line)\n", picture)
			return 2
		}
		return in.piped(ctx)
	}
	f := in.opts.Flags
	if picture := in.picture(); picture != "" && !in.opts.HasLine && !looksLikeFile(in.opts.Args[0]) {
		fmt.Fprintf(in.stderr, "locklab: %s: a run is drawn after a script or -c LINE, not one command (try: locklab %s -c '%s')\n",
			picture, picture, strings.Join(in.opts.Args, " "))
		return 2
	}
	if isRedisCommand(in.opts) {
		if in.sessions.Target.Embedded {
			fmt.Fprintln(in.stderr, "locklab: no server named: this ran on an embedded Redis that ends with the command, data and all (`locklab` keeps one for a whole session; -p PORT uses a server)")
		}
		if !repeats(f) {
			// One Redis command, as redis-cli runs it: Ctrl-C ends the process
			// at once (SIGINT's default), and no signal handler is set up.
			return in.runLine(ctx, commandSource(in.opts.Args), false)
		}
		ctx, stop := in.interruptible(ctx)
		defer stop()
		return in.repeat(ctx)
	}
	ctx, stop := in.interruptible(ctx)
	defer stop()
	switch {
	case in.opts.HasLine:
		return in.runLine(ctx, shell.Source{Lines: lines.From(strings.NewReader(in.opts.Line))}, true)
	case looksLikeFile(in.opts.Args[0]):
		return in.runFile(ctx, in.opts.Args[0], in.opts.Args[1:])
	}
	return in.runLine(ctx, commandSource(in.opts.Args), false) // a lab word given as arguments (locklab load ...)
}

// isRedisCommand reports whether o's arguments are one Redis command (not
// a script, nor a lab word), as `locklab SET k v` gives it.
func isRedisCommand(o Options) bool {
	return !o.HasLine && len(o.Args) > 0 && !looksLikeFile(o.Args[0]) && words.Classify(o.Args, words.StandIn).Kind == words.Redis
}

// repeats reports whether redis-cli's options run the command more than
// once as it is given: -r N, -i SECONDS, or -x (its last argument from
// stdin).
func repeats(f cliflags.Options) bool {
	return f.Repeat != 0 || f.Interval != 0 || f.StdinLastArg
}

// isOneCommand reports whether o runs one Redis command once, as
// redis-cli SET k v does, and nothing else.
func isOneCommand(o Options) bool {
	return !o.Flags.Pipe && isRedisCommand(o) && !repeats(o.Flags)
}

// newShell makes the shell for this run. notes is whether it annotates by
// default: yes for the REPL, scripts and -c; no where locklab stands in for
// redis-cli (a command as arguments, piped stdin), whose output must stay
// redis-cli's, and where an unknown word goes to the server as redis-cli
// would send it. --notes (the lab's own rules, annotated) and --no-notes
// override.
func (in *input) newShell(stdout, stderr io.Writer, interactive, notes bool) (*shell.Shell, error) {
	standIn := !interactive && !notes && in.opts.Notes != "on"
	switch in.opts.Notes {
	case "on":
		notes = true
	case "off":
		notes = false
	}
	gutter := in.opts.Gutter == "on" || (in.opts.Gutter == "" && isTerminal(in.stdout))
	sh, err := shell.New(shell.Config{
		Sessions: in.sessions, Flags: in.opts.Flags,
		Stdout: stdout, Stderr: stderr,
		TTY: isTerminal(in.stdout), Interactive: interactive, StandIn: standIn, Notes: notes, Gutter: gutter, Color: in.opts.color,
		Trace:   interactive || in.opts.Timeline || in.opts.Mermaid != "" || in.opts.SVG != "",
		Width:   func() int { return terminalWidth(in.stdout) },
		Scripts: in.opts.Scripts,
		Hint:    scripts.LuaHint,
		Observe: in.observe,
	})
	if sh != nil {
		in.shells = append(in.shells, sh)
		in.runs[sh] = in.lastRun
	}
	return sh, err
}

// observe is the lab's observer of a new shell's runs (lab.Run), kept
// for the pictures the run's end draws.
func (in *input) observe(c words.ObserverConfig) words.Observer {
	in.lastRun = lab.NewRun(c)
	return in.lastRun
}

// runLine runs one line: -c LINE (a one-line script, with its verdict),
// or a command given as arguments (as redis-cli runs it).
func (in *input) runLine(ctx context.Context, src shell.Source, script bool) int {
	sh, err := in.newShell(in.stdout, in.stderr, false, script)
	if err != nil {
		fmt.Fprintln(in.stderr, "locklab:", err)
		return 1
	}
	if script {
		src.Whole, src.Summary = true, "-c"
	}
	err = sh.Run(ctx, src)
	drawn := 0
	if script {
		drawn = in.drawTimeline(ctx, sh)
	}
	return max(in.status(sh, err), drawn)
}

// picture is the option that asked for a drawing of the run, or "".
func (in *input) picture() string {
	switch {
	case in.opts.Timeline:
		return "--timeline"
	case in.opts.SVG != "":
		return "--svg " + in.opts.SVG
	case in.opts.Mermaid != "":
		return "--mermaid " + in.opts.Mermaid
	}
	return ""
}

// repeat runs one Redis command as redis-cli's -r N (-1: until Ctrl-C),
// -i SECONDS and -x (the last argument read from stdin) run it.
func (in *input) repeat(ctx context.Context) int {
	args := in.opts.Args
	if in.opts.Flags.StdinLastArg {
		data, err := io.ReadAll(in.stdin)
		if err != nil {
			fmt.Fprintln(in.stderr, "locklab: -x: reading stdin:", err)
			return 1
		}
		args = append(append([]string{}, args...), string(data))
	}
	sh, err := in.newShell(in.stdout, in.stderr, false, false)
	if err != nil {
		fmt.Fprintln(in.stderr, "locklab:", err)
		return 1
	}
	for i := 0; in.opts.Flags.Repeat < 0 || i < max(in.opts.Flags.Repeat, 1); i++ {
		if i > 0 && (clock.Real{}).Sleep(ctx, in.opts.Flags.Interval) != nil {
			break
		}
		if err = sh.Run(ctx, commandSource(args)); ctx.Err() != nil {
			break
		}
	}
	return in.status(sh, err)
}

func (in *input) runFile(ctx context.Context, name string, args []string) int {
	data, err := labfs.ReadNamed(ctx, name)
	if ctx.Err() != nil {
		fmt.Fprintf(in.stderr, "locklab: %s: stopped while reading it\n", name)
		return 130
	}
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err
		}
		fmt.Fprintf(in.stderr, "locklab: %s: %v\n", name, err)
		return 127
	}
	sh, err := in.newShell(in.stdout, in.stderr, false, true)
	if err != nil {
		fmt.Fprintln(in.stderr, "locklab:", err)
		return 1
	}
	err = sh.Run(ctx, shell.Source{Lines: lines.From(bytes.NewReader(data)), Name: name, Args: args, Whole: true, Precheck: true, Summary: name, StopWhenDown: true})
	drawn := in.drawTimeline(ctx, sh)
	return max(in.status(sh, err), drawn)
}

// drawTimeline draws the run when --timeline asked for it, and writes the
// --mermaid and --svg files.
func (in *input) drawTimeline(ctx context.Context, sh *shell.Shell) int {
	if ctx.Err() != nil {
		return 0
	}
	if in.opts.Timeline {
		sh.DrawTimeline(ctx, terminalWidth(in.stdout))
	}
	status := 0
	for _, export := range []struct{ file, format string }{{in.opts.Mermaid, "mermaid"}, {in.opts.SVG, "svg"}} {
		if export.file == "" {
			continue
		}
		if err := timeline.Export(in.runs[sh].Timeline(ctx, in.sessions.Get(session.Main)), export.format, export.file); err != nil {
			fmt.Fprintln(in.stderr, "locklab:", err)
			status = 1
		} else {
			fmt.Fprintf(in.stderr, "locklab: wrote the run's timeline to %s\n", export.file)
		}
	}
	return status
}

// terminalWidth is stdout's width, or 80 when it is not a terminal.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width >= 40 {
			return width
		}
	}
	return 80
}

// piped runs stdin line by line, as redis-cli does with a pipe.
func (in *input) piped(ctx context.Context) int {
	sh, err := in.newShell(in.stdout, in.stderr, false, false)
	if err != nil {
		fmt.Fprintln(in.stderr, "locklab:", err)
		return 1
	}
	ir := newInterrupter()
	defer ir.stop()
	err = sh.Run(ctx, shell.Source{Lines: lines.From(in.stdin), Summary: "<stdin>", OnEntry: ir.set})
	return in.status(sh, err)
}

// status is the exit status of a run: the script's `exit N` or last
// status, 2 for a syntax error, 130 for Ctrl-C; and, as with redis-cli,
// 1 after a Redis error reply only with -e.
func (in *input) status(sh *shell.Shell, err error) int {
	if msg := words.Describe(err); msg != "" {
		fmt.Fprintln(in.stderr, msg)
	}
	if code := words.ExitCode(err); code != 0 {
		return code
	}
	if in.opts.Flags.ExitOnError && sh.RedisErrors() > 0 {
		return 1
	}
	return 0
}

// looksLikeFile tells a script (x.lab, ./x.sh, an existing file) from a
// Redis command given as arguments.
func looksLikeFile(arg string) bool {
	ext := filepath.Ext(arg)
	return ext == ".lab" || ext == ".sh" || strings.Contains(arg, "/") // ./PING runs a file; PING is a command
}

// commandSource turns arguments the host shell already split back into
// one entry of the lab language, each word quoted as it was. A word that
// no quoting holds (bytes that are not UTF-8, a NUL: a binary value that
// -x read) goes as a positional parameter ("${2}"), which holds any
// bytes: the language's parser refused it ("invalid UTF-8 encoding").
func commandSource(args []string) shell.Source {
	words := make([]string, len(args))
	binary := false
	for i, a := range args {
		q, err := syntax.Quote(a, syntax.LangPOSIX)
		switch {
		case !utf8.ValidString(a) || strings.ContainsRune(a, 0):
			q, binary = `"${`+strconv.Itoa(i+1)+`}"`, true
		case err != nil:
			q = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words[i] = q
	}
	src := shell.Source{Lines: lines.From(strings.NewReader(strings.Join(words, " ")))}
	if binary {
		src.Whole, src.Args = true, args // a run with $1, $2 ... of its own
	}
	return src
}
