package jobs

import (
	"context"
	"fmt"
	"io"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/words"
)

// MaxJobs is how many background jobs may run at once, unless New is
// given another limit. A lesson runs two or three at once (the shipped
// scripts four at most, load's workers are no jobs), and each job that
// sends a command holds a connection of its own. A fork bomb costs what
// its jobs cost until the limit stops it: each is a subshell, a
// goroutine and its stack, and the bomb's pipes, 100 to 250 µs of CPU
// and 15 to 45 KB, almost all the interpreter's (what repl/lang/jobs adds is
// 2 to 3% of the CPU). At 10,000 the bombs of bench/forkbomb.sh took 0.4
// to 1.9 s and 160 to 460 MB to stop on two cores, 2 to 8.5 s under a
// load of 12; at 500, 0.06 to 0.12 s and 20 to 35 MB, 0.1 to 0.9 s.
const MaxJobs = 500

// StartWord is the command that runs just before each background job
// starts, in the shell that starts it (`StartWord TEXT [SESSION]`): the
// shell's call handler takes the job's slot with Reserve, and its place
// in the table with Started. It starts with a NUL byte, which no word
// typed or read from a file can contain. (A word made at run time can,
// printf '\000job' | read -r w, and a trace shows the word: "$w" x takes
// a slot for a job that never starts, which holds its own run's end
// until Ctrl-C, as a long sleep would.)
const StartWord = "\x00job"

// jobHook is where every background job's stderr is first redirected:
// the shell's open handler serves it with Begin, a writer to the job's
// stderr as it was, whose close, when the job's statement ends, frees
// the job's slot. As a lane (see laneDevice), it holds the secret no
// script knows: one that named it could take a starting job's slot and
// place in the table, and end the job there.
var jobHook = sync.OnceValue(func() string { return "\x00job-slot-" + secret() })

// IsHook reports whether path is a background job's hook (see Begin).
func IsHook(path string) bool { return path == jobHook() }

// limit counts the background jobs of one shell.
type limit struct {
	mu   sync.Mutex
	max  int
	live int // slots taken: jobs about to start, and running
	// runs are the jobs of each context that starts some (a script, -c,
	// a REPL entry), by its Done channel.
	runs map[<-chan struct{}]*run
}

// run is the jobs of one context.
type run struct {
	live int // its slots
	// pending are its slots for jobs that have not started yet, by the
	// group each job counts in.
	pending map[*group]int
	full    bool // it met the limit: none of its jobs starts another
	stop    func() bool
}

// reserve takes a slot for the job about to start. At the limit, the
// error names it (once for the run), and from then on no job of the run
// starts another until they have all ended: the shell that tried stops,
// and a fork bomb dies out.
//
// With tell, the error that names the limit is told at once, before any
// other shell of the run can see the run full, and returned without its
// message: whichever shell meets the limit, the message is out before
// the run can end (a -c line whose main shell stopped first ended the
// process before the job that met the limit had said so).
func (j *Jobs) reserve(ctx context.Context, tell func(error)) error {
	l := &j.limit
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	r := l.runOf(ctx)
	if r.full || l.live >= l.max {
		e := &words.Error{Status: 1}
		if !r.full {
			e.Msg = fmt.Sprintf("too many background jobs (%d running): the lab runs at most %d at once; this shell stops here, and its jobs start no more (start fewer, or wait for some first)", l.live, l.max)
		}
		r.full = true
		l.release(ctx.Done(), r, 0) // forgotten at once when it has no job of its own
		if tell != nil && e.Msg != "" {
			tell(e)
			e = &words.Error{Status: e.Status}
		}
		return e
	}
	l.live++
	r.live++
	g := j.groupOf(ctx)
	r.pending[g]++
	g.join(1)
	return nil
}

// runOf is ctx's run, made when it starts its first job. A job whose
// context is cancelled before it starts never starts: its slot is freed
// then.
func (l *limit) runOf(ctx context.Context) *run {
	done := ctx.Done()
	if r := l.runs[done]; r != nil {
		return r
	}
	r := &run{pending: map[*group]int{}, stop: func() bool { return false }}
	if done != nil {
		r.stop = context.AfterFunc(ctx, func() { l.cancelled(done) })
	}
	l.runs[done] = r
	return r
}

func (l *limit) cancelled(done <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.runs[done]
	if r == nil {
		return
	}
	for g, n := range r.pending {
		delete(r.pending, g)
		g.leave(n)
		l.release(done, r, n)
	}
}

// release frees n of a run's slots; a run with none left is forgotten.
// Called with l.mu held.
func (l *limit) release(done <-chan struct{}, r *run, n int) {
	l.live -= n
	r.live -= n
	if r.live == 0 {
		r.stop()
		delete(l.runs, done)
	}
}

// begin is a job's hook, opened as the job starts: it writes to stderr,
// and its Close, as the job ends, frees the job's slot and takes the job
// out of the table.
func (j *Jobs) begin(ctx context.Context, stderr io.Writer) *hook {
	h := &hook{w: stderr, job: j.claim(ctx), table: &j.table}
	l := &j.limit
	l.mu.Lock()
	defer l.mu.Unlock()
	done, g := ctx.Done(), j.groupOf(ctx)
	r := l.runs[done]
	if r == nil || r.pending[g] == 0 {
		return h // its slot was freed when its context was cancelled
	}
	if r.pending[g]--; r.pending[g] == 0 {
		delete(r.pending, g)
	}
	h.l, h.done, h.run, h.group = l, done, r, g
	return h
}

// hook is a running job's stderr; l is set while it holds a slot, job
// when it is a job of the table (not one inside another).
type hook struct {
	w     io.Writer
	l     *limit
	done  <-chan struct{}
	run   *run
	group *group
	job   *job
	table *table
}

func (*hook) Read([]byte) (int, error)      { return 0, io.EOF }
func (h *hook) Write(p []byte) (int, error) { return h.w.Write(p) }
func (h *hook) heldJob() *job               { return h.job }

func (h *hook) Close() error {
	if h.job != nil {
		h.table.end(h.job)
		h.job = nil
	}
	if l := h.l; l != nil {
		h.l = nil
		l.mu.Lock()
		defer l.mu.Unlock()
		h.group.leave(1)
		l.release(h.done, h.run, 1)
	}
	return nil
}

// guardJobs makes every background job of node take a slot and a place
// in the table: StartWord runs before it, and it becomes
// `{ LOCKLAB_JOB=$LOCKLAB_NEXT_JOB; JOB; endWord; } 2>jobHook &` (the
// job's session's and its own redirections, inside, win), and StartWord
// is given its command line as texts has it. The id the starter set
// becomes the job's own; in a job's own jobs, it is still that job's.
func guardJobs(node syntax.Node, texts map[*syntax.Stmt]string) {
	syntax.Walk(node, func(n syntax.Node) bool {
		for _, list := range allStmtLists(n) {
			*list = guardList(*list, texts)
		}
		return true
	})
}

func guardList(list []*syntax.Stmt, texts map[*syntax.Stmt]string) []*syntax.Stmt {
	var out []*syntax.Stmt
	for i, st := range list {
		if !st.Background || guarded(st) {
			if out != nil {
				out = append(out, st)
			}
			continue
		}
		if out == nil {
			out = append(out, list[:i]...)
		}
		text, ok := texts[st]
		if !ok {
			text = jobText(st)
		}
		start := callStmt(StartWord, text)
		if name := sessionWord(st); name != nil {
			start.Cmd.(*syntax.CallExpr).Args = append(start.Cmd.(*syntax.CallExpr).Args, name)
		}
		inner := *st
		inner.Background = false
		st.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{idStmt(), &inner, callStmt(endWord)}}
		st.Redirs = []*syntax.Redirect{{Op: syntax.RdrOut, N: &syntax.Lit{Value: "2"}, Word: QuotedWord(jobHook())}}
		out = append(out, start, st)
	}
	if out == nil {
		return list
	}
	return out
}

// sessionWord is the word naming the session a job was bound to (see
// bindJob), nil for none.
func sessionWord(st *syntax.Stmt) *syntax.Word {
	if len(st.Redirs) == 0 || len(st.Redirs[0].Word.Parts) != 3 {
		return nil
	}
	parts := st.Redirs[0].Word.Parts
	if q, ok := parts[0].(*syntax.SglQuoted); !ok || q.Value != laneDevice() {
		return nil
	}
	return &syntax.Word{Parts: parts[1:2]}
}

// idStmt is `LOCKLAB_JOB=$LOCKLAB_NEXT_JOB RANDOM=$LOCKLAB_NEXT_SEED`:
// the job's id, and its own $RANDOM (see seedVar).
func idStmt() *syntax.Stmt {
	value := func(name string) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: name}}}}
	}
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{
		{Name: &syntax.Lit{Value: IDVar}, Value: value(nextVar)},
		{Name: &syntax.Lit{Value: "RANDOM"}, Value: value(seedVar)},
	}}}
}

// callStmt is a statement calling words, each taken as it is.
func callStmt(words ...string) *syntax.Stmt {
	call := &syntax.CallExpr{}
	for _, w := range words {
		call.Args = append(call.Args, QuotedWord(w))
	}
	return &syntax.Stmt{Cmd: call}
}

// guarded reports whether a job already takes a slot (its entry was
// read before).
func guarded(st *syntax.Stmt) bool {
	if len(st.Redirs) == 0 || len(st.Redirs[0].Word.Parts) != 1 {
		return false
	}
	q, ok := st.Redirs[0].Word.Parts[0].(*syntax.SglQuoted)
	return ok && q.Value == jobHook()
}

// allStmtLists are every list of statements n holds, where a job may be.
func allStmtLists(n syntax.Node) []*[]*syntax.Stmt {
	switch n := n.(type) {
	case *syntax.File:
		return []*[]*syntax.Stmt{&n.Stmts}
	case *syntax.Block:
		return []*[]*syntax.Stmt{&n.Stmts}
	case *syntax.Subshell:
		return []*[]*syntax.Stmt{&n.Stmts}
	case *syntax.CmdSubst:
		return []*[]*syntax.Stmt{&n.Stmts}
	case *syntax.IfClause:
		return []*[]*syntax.Stmt{&n.Cond, &n.Then}
	case *syntax.WhileClause:
		return []*[]*syntax.Stmt{&n.Cond, &n.Do}
	case *syntax.ForClause:
		return []*[]*syntax.Stmt{&n.Do}
	case *syntax.CaseItem:
		return []*[]*syntax.Stmt{&n.Stmts}
	}
	return nil
}

// Running reports whether any background job runs, or is about to start.
func (j *Jobs) Running() bool {
	j.limit.mu.Lock()
	defer j.limit.mu.Unlock()
	return j.limit.live > 0
}
