package jobs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/words"
)

// SessionVar names, in a job's environment, the session its Redis
// commands go to.
const SessionVar = "LOCKLAB_SESSION"

// barrierWait bounds how long a job waits at the start barrier for the
// other jobs of its group (one that never sends a command must not hang
// the rest).
const barrierWait = 500 * time.Millisecond

// Jobs are the start barriers of one shell's background jobs.
type Jobs struct {
	mu       sync.Mutex
	barriers map[string]*barrier // id -> a group's start barrier
	arrived  map[string]bool     // barrier id/session -> that job has passed it
	next     int
	limit    limit
	skip     bool           // Track: no job waits at a barrier
	tracker  Tracker        // Track's (nil: none)
	table    table          // the run's jobs, for jobs, kill and wait %N
	seed     atomic.Uint64  // SeedRandom's (0: none)
	scripts  map[string]int // per job ("" for main), the interpreters ScriptSeed seeded, under mu
}

// New makes a shell's jobs, at most max of them running at once (0:
// MaxJobs).
func New(max int) *Jobs {
	if max <= 0 {
		max = MaxJobs
	}
	return &Jobs{barriers: map[string]*barrier{}, arrived: map[string]bool{},
		limit: limit{max: max, runs: map[<-chan struct{}]*run{}}, table: table{byID: map[int]*job{}}}
}

// Name gives every background job (`cmd &`) of f a session of its own:
// its Redis commands go to their own connection, its output to its own
// gutter. The name comes from the job (`./book.sh alice &` is alice,
// `@bob CMD &` is bob, `book carol &` is carol), else job1, job2...
// Consecutive jobs (`a & b & wait`) share a start barrier, and every job
// takes one of the shell's slots (see Reserve). It returns the sessions f
// starts, "" for one named at run time (nil: none).
func (j *Jobs) Name(node syntax.Node) []string {
	var names []string
	texts := jobTexts(node)
	syntax.Walk(node, func(n syntax.Node) bool {
		if list, ok := stmtList(n); ok {
			names = append(names, j.nameGroups(list)...)
		}
		if call, ok := n.(*syntax.CallExpr); ok {
			names = append(names, macroSessions(call)...)
		}
		return true
	})
	guardJobs(node, texts)
	return names
}

// jobTexts are the command lines of node's jobs, before Name rewrites
// them.
func jobTexts(node syntax.Node) map[*syntax.Stmt]string {
	texts := map[*syntax.Stmt]string{}
	syntax.Walk(node, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok && st.Background && !guarded(st) {
			texts[st] = jobText(st)
		}
		return true
	})
	return texts
}

// macroSessions are the sessions a macro call always uses (blind-unlock's
// slow and fast): a run with them has several sessions from its start.
func macroSessions(call *syntax.CallExpr) []string {
	if lits := words.Literals(call.Args); len(lits) > 0 {
		if w := words.Find(lits[0]); w != nil {
			return w.Sessions
		}
	}
	return nil
}

func stmtList(n syntax.Node) ([]*syntax.Stmt, bool) {
	switch n := n.(type) {
	case *syntax.File:
		return n.Stmts, true
	case *syntax.Block:
		return n.Stmts, true
	case *syntax.Subshell:
		return n.Stmts, true
	case *syntax.CmdSubst: // x=$(book alice &): its output is alice's, not x's
		return n.Stmts, true
	case *syntax.CaseItem:
		return n.Stmts, true
	case *syntax.IfClause:
		return n.Then, true
	case *syntax.ForClause:
		return n.Do, true
	case *syntax.WhileClause:
		return n.Do, true
	}
	return nil, false
}

// nameGroups names the jobs of one statement list, grouping runs of
// consecutive jobs behind one barrier. Names are unique within a group;
// a later group may reuse them (alice books again, as alice).
func (j *Jobs) nameGroups(list []*syntax.Stmt) []string {
	var group, started []string
	var jobs []*syntax.Stmt
	used := map[string]bool{}
	flush := func() {
		if len(group) > 1 {
			id := j.addBarrier(len(group))
			for _, st := range jobs {
				setBarrier(st, id)
			}
		}
		group, jobs, used = nil, nil, map[string]bool{}
	}
	i := -1 // the statement's place in the list, not counting schedule lines
	for _, st := range list {
		if !isSchedule(st) {
			i++
		}
		if !st.Background {
			flush()
			continue
		}
		if word := nameWord(st); word != nil {
			bindJob(st, "", word)         // named at run time: `book-locked $w ... &` in a loop
			started = append(started, "") // a job all the same: a run of its own, with gutters
			continue
		}
		name := uniqueName(jobName(st, i), used)
		bindJob(st, name, nil)
		group, started, jobs = append(group, name), append(started, name), append(jobs, st)
	}
	flush()
	return started
}

// isSchedule reports whether st is a `schedule` line, which a saved
// schedule adds at the top of the script it was saved from: it does not
// count in job names, so that the jobs keep the names the schedule uses.
func isSchedule(st *syntax.Stmt) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && call.Args[0].Lit() == "schedule"
}

// jobName picks a job's session name from its command line.
func jobName(st *syntax.Stmt, i int) string {
	if call, ok := st.Cmd.(*syntax.CallExpr); ok {
		if name := JobName(words.Literals(call.Args)); name != "" {
			return name
		}
	}
	return fmt.Sprintf("job%d", i+1)
}

func uniqueName(name string, used map[string]bool) string {
	candidate := name
	for n := 2; used[candidate]; n++ {
		candidate = fmt.Sprintf("%s%d", name, n)
	}
	used[candidate] = true
	return candidate
}

// nameWord is, for a job whose name comes from a word only known at run
// time (`./book.sh $w &`, `book $w &`), that word.
func nameWord(st *syntax.Stmt) *syntax.Word {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 {
		return nil
	}
	first, ok := words.Literal(call.Args[0])
	if !ok {
		return nil
	}
	if _, lit := words.Literal(call.Args[1]); NamedByArgument(first) && !lit {
		return call.Args[1]
	}
	return nil
}

// bindJob makes the job run in session name (or the value of word, at
// run time): its environment names the session, and its stdout and stderr
// go to the session's writers (ahead of the job's own redirections, which
// still win).
func bindJob(st *syntax.Stmt, name string, word *syntax.Word) {
	value := word
	if value == nil {
		value = QuotedWord(name)
	}
	assign := &syntax.Assign{Name: &syntax.Lit{Value: SessionVar}, Value: value}
	if call, ok := st.Cmd.(*syntax.CallExpr); ok {
		call.Assigns = append([]*syntax.Assign{assign}, call.Assigns...)
	} else {
		inner := &syntax.Stmt{Cmd: st.Cmd, Redirs: st.Redirs}
		st.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{assign}}}, inner}}
		st.Redirs = nil
	}
	out := &syntax.Redirect{Op: syntax.RdrOut, Word: deviceWord(value, "")}
	errs := &syntax.Redirect{Op: syntax.RdrOut, N: &syntax.Lit{Value: "2"}, Word: deviceWord(value, "/err")}
	st.Redirs = append([]*syntax.Redirect{out, errs}, st.Redirs...)
}

// deviceWord is the lane of session NAME (see laneDevice), +suffix, with
// NAME the (maybe not yet expanded) session word.
func deviceWord(name *syntax.Word, suffix string) *syntax.Word {
	parts := []syntax.WordPart{&syntax.SglQuoted{Value: laneDevice()}}
	parts = append(parts, &syntax.DblQuoted{Parts: name.Parts})
	return &syntax.Word{Parts: append(parts, &syntax.SglQuoted{Value: suffix})}
}

// QuotedWord is a word of s as it is: single-quoted, which keeps a NUL
// byte (the hooks' and lanes' names).
func QuotedWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: s}}}
}

// barrierVar names, in a job's environment, the start barrier of its group.
const barrierVar = "LOCKLAB_BARRIER"

// barrier lines up the first Redis command of each job in a group, so a
// scripted race starts together rather than in goroutine start-up order.
type barrier struct {
	mu      sync.Mutex
	waiting int
	ready   chan struct{}
}

// addBarrier names a barrier for a group of n jobs: its id says how many
// it waits for ("b3/2"), so that the script it is written into needs
// nothing of this shell's to run in another (explore runs one script,
// prepared once, in a shell per schedule). The barrier itself is made
// when its first job arrives (barrierFor).
func (j *Jobs) addBarrier(n int) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.next++
	return fmt.Sprintf("b%d/%d", j.next, n)
}

// Barriers is how many barrier ids j has named: every id it wrote into a
// script is at most b<Barriers()>.
func (j *Jobs) Barriers() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.next
}

// SkipBarriers makes the ids j names from now on come after b<n>: a
// script another shell named (a prepared one) holds ids up to n, and a
// script it runs must not name its barriers the same.
func (j *Jobs) SkipBarriers(n int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.next = max(j.next, n)
}

// barrierFor is the barrier of id, made on its first job's arrival; nil
// for an id this package did not write. Under j.mu.
func (j *Jobs) barrierFor(id string) *barrier {
	if b, ok := j.barriers[id]; ok {
		return b
	}
	_, count, _ := strings.Cut(id, "/")
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		return nil
	}
	b := &barrier{waiting: n, ready: make(chan struct{})}
	j.barriers[id] = b
	return b
}

// setBarrier adds the group's barrier to a bound job's environment.
func setBarrier(st *syntax.Stmt, id string) {
	assign := &syntax.Assign{Name: &syntax.Lit{Value: barrierVar}, Value: QuotedWord(id)}
	switch cmd := st.Cmd.(type) {
	case *syntax.CallExpr:
		cmd.Assigns = append([]*syntax.Assign{assign}, cmd.Assigns...)
	case *syntax.Block:
		cmd.Stmts[0].Cmd.(*syntax.CallExpr).Assigns = append(cmd.Stmts[0].Cmd.(*syntax.CallExpr).Assigns, assign)
	}
}

// AtStart is called before each command a job sends: the first time, it
// waits at the job's barrier, if it has one. The job's shell clears the
// variable, so later commands go straight on.
func (j *Jobs) AtStart(ctx context.Context) {
	hc := interp.HandlerCtx(ctx)
	v := hc.Env.Get(barrierVar)
	if !v.IsSet() || v.String() == "" || j.skipping() {
		return
	}
	key := v.String() + "/" + hc.Env.Get(SessionVar).String()
	j.mu.Lock()
	b := j.barrierFor(v.String())
	arrived := j.arrived[key]
	j.arrived[key] = true
	j.mu.Unlock()
	if b == nil || arrived {
		return
	}
	b.mu.Lock()
	b.waiting--
	if b.waiting == 0 {
		close(b.ready)
	}
	b.mu.Unlock()
	select {
	case <-b.ready:
	case <-time.After(barrierWait):
	case <-ctx.Done(): // Ctrl-C, or kill
	}
}

func (j *Jobs) skipping() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.skip
}
