package jobs

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// IDVar names, in a job's variables, the job it belongs to: its id in
// the table (never reused, unlike its number). A job started inside
// another keeps the outer one's: it is part of it, as in a subshell.
const IDVar = "LOCKLAB_JOB"

// endWord runs last in every background job (see guardJobs): it keeps
// the job's status. Its NUL byte keeps it from being typed; a script
// that makes it at run time (see StartWord) only exits with it.
const endWord = "\x00job-end"

// job is one background job of the run, as `jobs` lists it.
type job struct {
	id, n      int    // its id, and its number: [1], [2] ...
	name, text string // its session, and its command line
	ctx        context.Context
	cancel     context.CancelFunc // kill
	done       chan struct{}      // closed as it ends
	signal     int                // what kill sent (0: none)
	status     int                // its exit status, once done
	ended      bool               // endWord ran: status is the job's own
	finished   bool               // it ended: its number and status stay until reaped
	unstarted  func() bool        // stops its ending with its starter's context, once it runs
	inner      int                // the jobs started inside it so far (innerSeed), under the table's lock
}

// table is the run's jobs, the ones started by a shell that is not
// itself a job, in the order they started: those running, and those
// that ended and keep their number and status until reaped, as bash
// keeps them (by wait, jobs, or a new run).
type table struct {
	mu   sync.Mutex
	live []*job
	byID map[int]*job // the running ones
	last int          // the last id given
}

type jobKey struct{}

// errKilled stops a killed job's shell: fatal to the interpreter, it
// says nothing (kill already did what was asked).
var errKilled = errors.New("killed")

// nextVar names, in the variables of a shell that starts a job, the id
// of the job it started last: the job's copy of them is how its first
// word finds its place in the table.
const nextVar = "LOCKLAB_NEXT_JOB"

// Started gives the job about to start, `StartWord TEXT [SESSION]`, its
// place in the table, numbered one past the highest number there (as
// bash does); it returns the command that tells the job its id and the
// seed of its $RANDOM. A job's own jobs are part of it: they get no
// place, only a $RANDOM of their own. Should the job never run (a Ctrl-C
// just before), it ends with its shell's context.
func (j *Jobs) Started(ctx context.Context, args []string) []string {
	if outer := j.lookup(ctx); outer != nil {
		return []string{"eval", seedVar + "=" + j.innerSeed(outer)} // its $RANDOM, its own all the same
	}
	hc := interp.HandlerCtx(ctx)
	t := &j.table
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last++
	jb := &job{id: t.last, n: 1, text: args[1], done: make(chan struct{}), status: 1}
	if jb.name = hc.Env.Get(SessionVar).String(); len(args) > 2 && args[2] != "" {
		jb.name = args[2]
	}
	jb.ctx, jb.cancel = context.WithCancel(context.Background())
	if len(t.live) > 0 {
		jb.n = t.live[len(t.live)-1].n + 1
	}
	t.live = append(t.live, jb)
	t.byID[jb.id] = jb
	jb.unstarted = context.AfterFunc(ctx, func() { t.end(jb) })
	return []string{"eval", nextVar + "=" + strconv.Itoa(jb.id) + " " + seedVar + "=" + j.jobSeed(jb.id)}
}

// claim is the job of a starting job's hook: the one its shell's
// Started made, unless it runs inside another job.
func (j *Jobs) claim(ctx context.Context) *job {
	hc, ok := handlerCtx(ctx)
	if !ok || hc.Env.Get(IDVar).IsSet() || ctx.Value(jobKey{}) != nil {
		return nil
	}
	id, _ := strconv.Atoi(hc.Env.Get(nextVar).String())
	t := &j.table
	t.mu.Lock()
	defer t.mu.Unlock()
	jb := t.byID[id]
	if jb == nil || !jb.unstarted() {
		return nil // ended already (a Ctrl-C), or claimed: a copy of a job's shell starting its own
	}
	return jb
}

// handlerCtx is ctx's interpreter handler context, if it has one (a
// test's has not).
func handlerCtx(ctx context.Context) (hc interp.HandlerContext, ok bool) {
	defer func() { ok = recover() == nil }()
	return interp.HandlerCtx(ctx), true
}

// end marks a job ended: its status is its last command's, 128+N when
// signal N killed it, else 1 (it stopped on an error, or exit).
func (t *table) end(jb *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if jb.finished {
		return
	}
	delete(t.byID, jb.id)
	if !jb.ended && jb.signal != 0 {
		jb.status = 128 + jb.signal
	}
	jb.finished = true // its context stays: the jobs it started run on, as in bash, unless they were killed with it
	close(jb.done)
}

// reap takes jobs that ended out of the table: those of which keep says
// false. Called with t.mu held.
func (t *table) reap(keep func(*job) bool) {
	t.live = slices.DeleteFunc(t.live, func(jb *job) bool { return jb.finished && !keep(jb) })
}

// Forget reaps every job that ended: a new run numbers its jobs from
// the highest still running.
func (j *Jobs) Forget() {
	j.table.mu.Lock()
	defer j.table.mu.Unlock()
	j.table.reap(func(*job) bool { return false })
}

// lookup is the job a handler's command runs in: the one of its context
// (a script the job runs), else the one its variables name; nil outside
// any live job.
func (j *Jobs) lookup(ctx context.Context) *job {
	if jb, ok := ctx.Value(jobKey{}).(*job); ok {
		return jb
	}
	v := interp.HandlerCtx(ctx).Env.Get(IDVar)
	if !v.IsSet() {
		return nil
	}
	id, _ := strconv.Atoi(v.String())
	j.table.mu.Lock()
	defer j.table.mu.Unlock()
	return j.table.byID[id]
}

// Bind is ctx for a command about to run: in a job, it ends when the job
// is killed, so that a sleep wakes and a SUBSCRIBE stops. Call done when
// the command returns.
func (j *Jobs) Bind(ctx context.Context) (_ context.Context, done func()) {
	jb := j.lookup(ctx)
	if jb == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(context.WithValue(ctx, jobKey{}, jb))
	stop := context.AfterFunc(jb.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// Call is the call handler's part in jobs: a job's last word (endWord),
// and a killed job, whose shell stops at its next command. ok says
// whether it took the call.
func (j *Jobs) Call(ctx context.Context, args []string) (_ []string, ok bool, err error) {
	hc := interp.HandlerCtx(ctx)
	if args[0] == endWord { // its stderr is its hook again
		if jb := heldJob(hc.Stderr); jb != nil {
			j.table.mu.Lock()
			jb.status, jb.ended = hc.LastExitStatus, true
			j.table.mu.Unlock()
		}
		return []string{"exit", strconv.Itoa(hc.LastExitStatus)}, true, nil // the job's status stays its last command's
	}
	jb := j.lookup(ctx)
	if jb != nil && jb.ctx.Err() != nil {
		return nil, true, errKilled
	}
	if jb == nil && len(args) == 1 && args[0] == "wait" {
		j.Forget() // the jobs that ended are reaped
	}
	return nil, false, nil
}

// heldJob is the job whose hook w is (nil: none, or a job inside one).
func heldJob(w any) *job {
	if h, ok := w.(interface{ heldJob() *job }); ok {
		return h.heldJob()
	}
	return nil
}

// jobText is a job's command line as `jobs` shows it.
func jobText(st *syntax.Stmt) string {
	c := *st
	c.Background = false
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, &c)
	return strings.TrimSpace(b.String())
}
