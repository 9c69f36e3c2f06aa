package shell

import (
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/precheck"
)

// Prepared keeps a script as its first run left it, read whole, checked,
// rewritten and its jobs named, for the runs after it: explore runs one
// script once per schedule, each in a shell of its own, and only the
// first needs to read it. The syntax tree is shared: nothing that runs
// it writes to it (the jobs' barriers are made as their jobs arrive, in
// each shell; see jobs.Name). The zero value is empty; a Source that
// carries one fills it on its first run and reads it after.
type Prepared struct {
	mu       sync.Mutex
	file     *syntax.File
	jobs     []string // the sessions its jobs start (jobs.Name)
	uses     int      // the positional parameters it reads
	barriers int      // the barrier ids jobs.Name wrote into it go up to this
}

// load is what an earlier run kept, or nil.
func (p *Prepared) load() *Prepared {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.file == nil {
		return nil
	}
	return &Prepared{file: p.file, jobs: p.jobs, uses: p.uses, barriers: p.barriers}
}

// keep keeps a run's script, unless another run kept one first.
func (p *Prepared) keep(f *syntax.File, jobs []string, uses, barriers int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.file == nil {
		p.file, p.jobs, p.uses, p.barriers = f, jobs, uses, barriers
	}
}

// readWhole reads src to its end, checks it and rewrites it as the shell
// runs it, naming its jobs; from src.Prepared when an earlier run of the
// same script kept it there.
func (s *Shell) readWhole(src Source) (f *syntax.File, jobs []string, uses int, err error) {
	if src.Prepared != nil {
		if kept := src.Prepared.load(); kept != nil {
			s.jobs.SkipBarriers(kept.barriers) // a script it runs names its own after them
			return kept.file, kept.jobs, kept.uses, nil
		}
	}
	f, err = lines.ReadWhole(src.Lines, src.Name)
	if err == nil && src.Precheck {
		err = precheck.Script(f, src.Name)
	}
	if err == nil && src.Precheck {
		err = precheck.Servers(f, src.Name, src.Args)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	uses = precheck.Positionals(f)
	rewrite(f)
	jobs = s.jobs.Name(f)
	if src.Prepared != nil {
		src.Prepared.keep(f, jobs, uses, s.jobs.Barriers())
	}
	return f, jobs, uses, nil
}
