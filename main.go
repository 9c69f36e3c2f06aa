// Command locklab makes Redis lock bugs visible: a redis-cli-compatible
// REPL and script runner whose lab language runs lesson commands as they
// are, on an embedded Redis or a real one.
//
//	locklab                     REPL on a terminal; piped stdin runs line by line
//	locklab FILE.lab|FILE.sh    runs a script; more arguments become $1, $2 ...
//	locklab -c 'LINE'           runs one line of the lab language
//	locklab SET k v             runs one Redis command, as redis-cli SET k v
package main

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/locklab/locklab/repl/app"
	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/lab/timeline"
)

const usage = `usage: locklab [OPTIONS] [FILE.lab|FILE.sh [ARG ...] | -c LINE | CMD [ARG ...]]
       locklab [OPTIONS] explore|test ...   (each with its own --help)

With no server options locklab starts an embedded Redis; with them it connects
like redis-cli. Options (as redis-cli's):
` + cliflags.Help + `Environment: REDISCLI_AUTH (password), REDIS_URL (as -u), NO_COLOR, LOCKLAB_HISTFILE,
  LOCKLAB_NO_LANDLOCK=1 (no Linux Landlock sandbox), LOCKLAB_LANDLOCK_REPORT=1 (print it).
locklab's own:
  -c LINE      run one line of the lab language
  --no-color   no colour, even on a terminal
  --notes      annotate replies and print verdicts (the default for the REPL, scripts and -c)
  --no-notes   print exactly what redis-cli would (the default for piped input and one command)
  --timeline   after a script, draw its run: a lane per session, a bar per lock
  --mermaid F  after a script, write its run to F as a Mermaid sequenceDiagram
  --svg F      after a script, write its run to F as a self-contained SVG swimlane
  --record F.lab  record the REPL session into F.lab, a lab that checks itself (as "record F.lab" at the prompt)
  --gutter     prefix each line with its session and time when several sessions run
               (the default on a terminal); --no-gutter never
  --help       this text
  -v, --version  locklab's version (its commit, when built from a checkout) and Go's
`

func main() {
	wholeProgram, ownProcess = true, true
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// ownScripts are the lab's own scripts, so that `make break` and the
// lesson's `./book_no_lock.sh` run from any folder.
//
//go:embed scripts/*.lab scripts/*.sh
var ownScripts embed.FS

// wholeProgram is set when locklab runs as its own process (not inside a
// test's): only then does it decide how many CPUs it uses.
var wholeProgram bool

// ownProcess is set when locklab is a process of its own: main, or the
// test binary run as locklab by the end-to-end scripts. Only then does it
// restrict itself with Landlock, which lasts for the whole process.
var ownProcess bool

// run parses the command line and hands over to repl.Main; it returns the
// process's exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "Try locklab --help.")
		return 2
	}
	opts.ShareCPUs = wholeProgram
	opts.Sandbox = ownProcess
	opts.Scripts, _ = fs.Sub(ownScripts, "scripts")
	if opts.Help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if opts.Version {
		fmt.Fprintln(stdout, version())
		return 0
	}
	return app.Main(opts, stdin, stdout, stderr)
}

// parseArgs reads locklab's own options and redis-cli's, in any order,
// until the first word that is not an option.
func parseArgs(args []string) (app.Options, error) {
	var o app.Options
	o.Flags.Set = map[string]bool{}
	for len(args) > 0 && cliflags.IsFlag(args[0]) {
		switch args[0] {
		case "--help":
			o.Help = true
			return o, nil
		case "-v", "--version":
			o.Version = true
			return o, nil
		case "--no-color":
			o.NoColor, args = true, args[1:]
		case "--timeline":
			o.Timeline, args = true, args[1:]
		case "--mermaid", "--svg":
			if len(args) < 2 {
				return o, fmt.Errorf("locklab: %s needs a file to write, e.g. %s out.%s", args[0], args[0], map[string]string{"--mermaid": "mmd", "--svg": "svg"}[args[0]])
			}
			format := strings.TrimPrefix(args[0], "--")
			if err := timeline.CheckExport(format, args[1]); err != nil {
				return o, fmt.Errorf("locklab: %v", err)
			}
			if format == "mermaid" {
				o.Mermaid = args[1]
			} else {
				o.SVG = args[1]
			}
			args = args[2:]
		case "--record":
			if len(args) < 2 || filepath.Ext(args[1]) != ".lab" {
				return o, fmt.Errorf("locklab: --record needs a .lab file to write, e.g. --record session.lab")
			}
			o.Record, args = args[1], args[2:]
		case "--gutter", "--no-gutter":
			o.Gutter, args = map[string]string{"--gutter": "on", "--no-gutter": "off"}[args[0]], args[1:]
		case "--notes", "--no-notes":
			o.Notes, args = map[string]string{"--notes": "on", "--no-notes": "off"}[args[0]], args[1:]
		case "-c":
			if len(args) < 2 {
				return o, fmt.Errorf("locklab: -c needs a line to run, e.g. locklab -c 'SET k v'")
			}
			o.Line, o.HasLine, args = args[1], true, args[2:]
		case "--":
			args = args[1:]
			o.Args = args
			return o, nil
		default:
			n, err := cliflags.ParseFlag(&o.Flags, args)
			if err != nil {
				return o, err
			}
			args = args[n:]
		}
	}
	o.Args = args
	o.AuthWarning = o.Flags.Set["password"] && !o.Flags.NoAuthWarning
	applyEnv(&o.Flags)
	return o, nil
}

// applyEnv reads redis-cli's environment: REDISCLI_AUTH for the password,
// and REDIS_URL, used when no server was named with -h, -p, -s or -u.
func applyEnv(f *cliflags.Options) {
	if pw := os.Getenv("REDISCLI_AUTH"); pw != "" && !f.Set["password"] {
		f.Password = pw
		f.Set["password"] = true
	}
	if u := os.Getenv("REDIS_URL"); u != "" && !f.Set["host"] && !f.Set["port"] && !f.Set["socket"] {
		if _, err := cliflags.Parse(f, []string{"-u", u}); err != nil {
			fmt.Fprintln(os.Stderr, strings.Replace(err.Error(), "-u", "REDIS_URL", 1))
		}
	}
}

// version is what -v prints, as `redis-cli -v` prints "redis-cli 7.0.15":
// the module's version, or for a build from a checkout "dev" and its
// commit (with "+changes" when the tree was not clean), then Go's.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "locklab dev"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "dev"
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; len(rev) >= 12 {
			v += " " + rev[:12]
		}
		if settings["vcs.modified"] == "true" {
			v += "+changes"
		}
	}
	return fmt.Sprintf("locklab %s (%s)", v, info.GoVersion)
}
