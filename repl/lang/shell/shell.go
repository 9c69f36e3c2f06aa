package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/labfs"
	"github.com/locklab/locklab/repl/lang/words"
)

// Config is what a Shell needs from the program around it.
type Config struct {
	Sessions    *session.Set
	Flags       cliflags.Options // locklab's own flags: output mode, -e
	Stdout      io.Writer        // the terminal (or whatever stdout is)
	Stderr      io.Writer
	TTY         bool         // Stdout is a terminal: replies to it use redis-cli's TTY format
	Interactive bool         // a person is typing: slow commands print redis-cli's (N.NNs)
	StandIn     bool         // locklab stands in for redis-cli: unknown words go to the server
	Notes       bool         // annotate replies and print verdicts (off for redis-cli-style use)
	Trace       bool         // keep the run's events for its timeline even without notes
	Gutter      bool         // prefix lines with session and time when several sessions run
	Color       bool         // colour notes and gutters
	Width       func() int   // the terminal's width, for the timeline (nil: 80)
	Clock       clock.Clock  // time as the lab sees it (nil: the wall clock)
	Scripts     fs.FS        // the lab's own scripts: a script not found in Dir is looked for here
	Dir         string       // the folder the lab was given (default: the working folder): the language sees its scripts as /lab
	MaxJobs     int          // how many background jobs may run at once (0: jobs.MaxJobs)
	Tracker     jobs.Tracker // told when jobs start, end and are waited for (explore); nil: none
	Seed        uint64       // when set, every $RANDOM (main's, each job's, each script's) starts from a seed made of it: the same numbers in every run that takes the same course (explore); 0: by chance
	// Refuse, when set, is asked about every call of a word of the table
	// before it runs (args its words, at its FILE:LINE:COL) and may stop
	// it with an error that ends the run: explore's, for calls whose
	// entry says it cannot run them, named only at run time ($c up).
	Refuse func(w *words.Word, args []string, at string) error
	// Hint, when set, is asked about an entry that does not parse, and
	// may say what it is (the lab's: Lua pasted alone, scripts.LuaHint);
	// "" leaves it to the language's own hint (lines.PasteHint).
	Hint func(entry string) string
	// Observe makes the observer of the shell's runs (lab.Observe): what
	// every command and reply means for the lesson.
	Observe func(words.ObserverConfig) words.Observer
}

// Shell runs the lab language. It keeps one interpreter for the REPL and
// piped input, so variables set by one entry are seen by the next, as in
// an interactive sh.
type Shell struct {
	cfg    Config
	out    *output.Output
	obs    words.Observer // the lab's record, printer and checker of the runs
	parts  *words.Parts   // the features' state (the lab's cluster, Redlock's nodes ...)
	runner *interp.Runner // the REPL's and piped input's
	jobs   *jobs.Jobs
	view   *labfs.View // the files the lab was given
	frames frames      // the function calls under way
	down   *serverDown // set while a script runs: its own server unreachable stops it

	mu         sync.Mutex
	lastStatus error           // the exit status of the last entry, as an interp.ExitStatus
	told       map[string]bool // things said once (a script found in the lab's own folder)
}

// New makes a shell. It fails only if the interpreter rejects its options.
func New(cfg Config) (*Shell, error) {
	if cfg.Dir == "" {
		cfg.Dir, _ = os.Getwd()
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Width == nil {
		cfg.Width = func() int { return 80 }
	}
	s := &Shell{cfg: cfg, out: output.New(cfg.Stdout, cfg.Stderr, cfg.Gutter, cfg.Color),
		parts: &words.Parts{}, jobs: jobs.New(cfg.MaxJobs),
		view: labfs.New(cfg.Dir, cfg.Scripts)}
	s.out.SetClock(cfg.Clock.Now)
	if cfg.Tracker != nil {
		s.jobs.Track(cfg.Tracker) // the scheduler decides who goes first
	}
	s.jobs.SeedRandom(cfg.Seed)
	if cfg.Observe == nil {
		return nil, errors.New("shell: no Observe in Config (the program gives lab.Observe)")
	}
	s.obs = cfg.Observe(words.ObserverConfig{Out: s.out, Now: cfg.Clock.Now, TTY: cfg.TTY, Interactive: cfg.Interactive, Notes: cfg.Notes, Trace: cfg.Trace})
	s.obs.Install(s.parts)
	stdout, stderr := s.out.Writers(session.Main)
	r, err := s.newRunner(stdout, stderr, session.Main)
	if err != nil {
		return nil, err
	}
	s.runner = r
	s.seedRandom(r, "")
	return s, nil
}

// seedRandom starts r's $RANDOM, when the run's are seeded (Config.Seed),
// from the seed jobs.ScriptSeed gives the next interpreter of job ("" for
// main).
func (s *Shell) seedRandom(r *interp.Runner, job string) {
	seed, ok := s.jobs.ScriptSeed(job)
	if !ok {
		return
	}
	value := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: seed}}}
	r.Run(context.Background(), &syntax.CallExpr{Assigns: []*syntax.Assign{{Name: &syntax.Lit{Value: "RANDOM"}, Value: value}}})
}

// newRunner makes an interpreter whose Redis commands go to sessionName.
// Its world is the lab's own: its folder is labfs.Root, its variables
// are the lab's (nothing leaks in from the host), and every file it
// looks at goes through the view. TMPDIR holds a NUL byte, which no path
// a script can write holds: the interpreter opens its own FIFOs (process
// substitution) under TMPDIR without the open handler, so none can be
// made, and no path a script names is taken for one.
func (s *Shell) newRunner(stdout, stderr io.Writer, sessionName string, params ...string) (*interp.Runner, error) {
	return interp.New(
		interp.StdIO(nil, stdout, stderr),
		interp.Env(expand.ListEnviron(labEnviron(sessionName)...)),
		inLabFolder,
		interp.Params(append([]string{"-f", "--"}, params...)...), // -f: no globbing, `KEYS *` reaches Redis
		interp.CallHandler(s.call),
		interp.ExecHandlers(s.execMiddleware),
		interp.OpenHandler(s.open),
		interp.StatHandler(s.view.Stat),
		interp.AccessHandler(s.view.Access),
		interp.ReadDirHandler2(s.view.ReadDir),
	)
}

// labEnviron is the variables a lab's interpreter starts with.
func labEnviron(sessionName string) []string {
	return []string{"LOCKLAB=1", "HOME=" + labfs.Root, "PATH=", "TMPDIR=/\x00no-temporary-files",
		"UID=1000", "EUID=1000", "GID=1000", jobs.SessionVar + "=" + sessionName}
}

// inLabFolder puts the interpreter in labfs.Root, a folder that is not
// the host's: interp.Dir would look for it on the host.
func inLabFolder(r *interp.Runner) error {
	r.Dir = labfs.Root
	return nil
}

// Close stops what the lab started (a failover lab's servers).
func (s *Shell) Close() { s.parts.Close(); s.view.Close() }

// RedisErrors is how many error replies Redis gave so far (for -e).
func (s *Shell) RedisErrors() int { return s.obs.RedisErrors() }

func (s *Shell) setStatus(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastStatus = words.AsStatus(err)
}

// said reports whether what was already said once, and notes it said.
func (s *Shell) said(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.told == nil {
		s.told = map[string]bool{}
	}
	done := s.told[what]
	s.told[what] = true
	return done
}

// status is the exit status of the last entry (nil for 0), as sh
// reports $? when its input ends: 2 after a syntax error, 130 after Ctrl-C.
func (s *Shell) status() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastStatus
}

// Lane is where lines for a lane of the run that is no session go (a
// fault explore makes happen): the run's output, with name in the gutter
// when gutters are on.
func (s *Shell) Lane(name string) io.Writer {
	w, _ := s.out.Writers(name)
	return w
}
