package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/sandbox"
)

// EnvReport names the variable that makes locklab print, on stderr,
// what its sandbox did and each path it left reachable.
const EnvReport = "LOCKLAB_LANDLOCK_REPORT"

// Confine restricts this process with Landlock (package sandbox) to
// what the run o describes needs, for ever: Main calls it once set-up is
// done, when o.Sandbox is set. A sandbox that could not be set up is a
// warning on stderr; the run goes on under the lab language's view of
// files alone.
func Confine(o Options, stdin io.Reader, stderr io.Writer) sandbox.Status {
	st, err := sandbox.Apply(needs(o, stdin))
	if err != nil {
		fmt.Fprintf(stderr, "locklab: warning: no Landlock sandbox: %v\n", err)
	}
	if os.Getenv(EnvReport) != "" {
		fmt.Fprint(stderr, st.Report())
	}
	return st
}

// confineIf confines the process when o.Sandbox says to.
func confineIf(o Options, stdin io.Reader, stderr io.Writer) {
	if o.Sandbox {
		Confine(o, stdin, stderr)
	}
}

// needs is what the run o describes needs of the host's files, beyond
// what every run needs: the REPL writes in its start folder and its
// history file (made now, as the sandbox allows the file, not its
// folder); a script or explore reads its script's folder; --svg,
// --mermaid and explore --save write their files. One Redis command
// given as arguments starts no redis-server (only lab words do) and
// writes no file: it needs neither, nor a look for the program on PATH
// (told from a lab word by the words' table: Main installs it first).
func needs(o Options, stdin io.Reader) sandbox.Run {
	if !isExplore(o) && !isTest(o) && isOneCommand(o) {
		return sandbox.InStartDir()
	}
	run := sandbox.Here()
	switch {
	case isExplore(o):
		c, _ := explore.ParseFlags(o.Args[1:])
		run.Scripts = nonEmpty(c.File)
		run.Outputs = nonEmpty(c.Save, c.Picture.SVG, c.Picture.Mermaid)
	case isTest(o):
		t, _ := parseTestFlags(o.Args[1:])
		run.Scripts = testPaths(t)
		run.Outputs = nonEmpty(t.junit)
		if t.update { // --update rewrites the labs
			for _, r := range findLabs(t) {
				run.Outputs = append(run.Outputs, r.File)
			}
		}
	case !o.HasLine && len(o.Args) == 0:
		run.Interactive = isTerminal(stdin)
	case !o.HasLine && looksLikeFile(o.Args[0]):
		run.Scripts = o.Args[:1]
	}
	run.Outputs = append(run.Outputs, nonEmpty(o.SVG, o.Mermaid, o.Record)...)
	if run.Interactive {
		run.HistoryFile = historyFile()
		privateFile(run.HistoryFile)
	}
	return run
}

// nonEmpty are the names given.
func nonEmpty(names ...string) []string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// testPaths are the paths `locklab test` reads, as the sandbox takes
// scripts (it reads a script's folder): a folder's own name inside it.
func testPaths(t testOptions) []string {
	var out []string
	for _, p := range append([]string{"."}, t.paths...) {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			p = filepath.Join(p, "x.lab")
		}
		out = append(out, p)
	}
	return out
}
