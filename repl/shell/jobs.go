package shell

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lab"
)

// sessionDevice is the directory of the pseudo-files a job's output is
// redirected to: the open handler turns /dev/locklab/NAME into that
// session's line writer.
const sessionDevice = "/dev/locklab/"

// barrierWait bounds how long a job waits at the start barrier for the
// other jobs of its group (one that never sends a command must not hang
// the rest).
const barrierWait = 500 * time.Millisecond

// nameJobs gives every background job (`cmd &`) of f a session of its own:
// its Redis commands go to their own connection, its output to its own
// gutter. The name comes from the job (`./book.sh alice &` is alice,
// `@bob CMD &` is bob, `book carol &` is carol), else job1, job2...
// Consecutive jobs (`a & b & wait`) share a start barrier. It returns the
// sessions f starts (nil: none).
func (s *Shell) nameJobs(f *syntax.File) []string {
	var names []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if list, ok := stmtList(n); ok {
			names = append(names, s.nameGroups(list)...)
		}
		if call, ok := n.(*syntax.CallExpr); ok {
			names = append(names, macroSessions(call)...)
		}
		return true
	})
	return names
}

// macroSessions are the sessions a macro call always uses (blind-unlock's
// slow and fast): a run with them has several sessions from its start.
func macroSessions(call *syntax.CallExpr) []string {
	if words := literals(call.Args); len(words) > 0 {
		if m := lab.Find(words[0]); m != nil {
			return m.Sessions
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
func (s *Shell) nameGroups(list []*syntax.Stmt) []string {
	var group, started []string
	var jobs []*syntax.Stmt
	used := map[string]bool{}
	flush := func() {
		if len(group) > 1 {
			id := s.addBarrier(len(group))
			for _, st := range jobs {
				setBarrier(st, id)
			}
		}
		group, jobs, used = nil, nil, map[string]bool{}
	}
	for i, st := range list {
		if !st.Background {
			flush()
			continue
		}
		if word := nameWord(st); word != nil {
			bindJob(st, "", word) // named at run time: `book-locked $w ... &` in a loop
			continue
		}
		name := uniqueName(jobName(st, i), used)
		bindJob(st, name, nil)
		group, started, jobs = append(group, name), append(started, name), append(jobs, st)
	}
	flush()
	return started
}

var nameChars = regexp.MustCompile(`^[A-Za-z][\w-]{0,31}$`)

// jobName picks a job's session name from its command line.
func jobName(st *syntax.Stmt, i int) string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if ok && len(call.Args) > 0 {
		words := literals(call.Args)
		if name := nameFromWords(words); name != "" {
			return name
		}
	}
	return fmt.Sprintf("job%d", i+1)
}

func nameFromWords(words []string) string {
	if len(words) == 0 {
		return ""
	}
	first := words[0]
	switch {
	case strings.HasPrefix(first, "@") && nameChars.MatchString(first[1:]):
		return first[1:]
	case first == "bash" || first == "sh" || first == "run" || first == "source":
		return nameFromWords(words[1:])
	case wordIndex[first] != nil && wordIndex[first].bidder && len(words) > 1 && nameChars.MatchString(words[1]):
		return words[1] // a macro whose first argument is the bidder
	case strings.Contains(first, "/"):
		if len(words) > 1 && nameChars.MatchString(words[1]) {
			return words[1] // ./book_no_lock.sh alice: the lesson's bidder
		}
		return strings.TrimSuffix(path.Base(first), path.Ext(first))
	}
	return ""
}

func literals(words []*syntax.Word) []string {
	var out []string
	for _, w := range words {
		lit, ok := literal(w)
		if !ok {
			break
		}
		out = append(out, lit)
	}
	return out
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
	first, ok := literal(call.Args[0])
	if !ok {
		return nil
	}
	named := strings.Contains(first, "/") || (wordIndex[first] != nil && wordIndex[first].bidder)
	if _, lit := literal(call.Args[1]); named && !lit {
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
		value = litWord(name)
	}
	assign := &syntax.Assign{Name: &syntax.Lit{Value: sessionVar}, Value: value}
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

// deviceWord is /dev/locklab/NAME+suffix, with NAME the (maybe not yet
// expanded) session word.
func deviceWord(name *syntax.Word, suffix string) *syntax.Word {
	parts := []syntax.WordPart{&syntax.SglQuoted{Value: sessionDevice}}
	parts = append(parts, &syntax.DblQuoted{Parts: name.Parts})
	return &syntax.Word{Parts: append(parts, &syntax.SglQuoted{Value: suffix})}
}

func litWord(s string) *syntax.Word {
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

// addBarrier makes a barrier for a group of n jobs and returns its id.
func (s *Shell) addBarrier(n int) string {
	s.jobMu.Lock()
	defer s.jobMu.Unlock()
	s.nextBarrier++
	id := fmt.Sprintf("b%d", s.nextBarrier)
	s.barriers[id] = &barrier{waiting: n, ready: make(chan struct{})}
	return id
}

// setBarrier adds the group's barrier to a bound job's environment.
func setBarrier(st *syntax.Stmt, id string) {
	assign := &syntax.Assign{Name: &syntax.Lit{Value: barrierVar}, Value: litWord(id)}
	switch cmd := st.Cmd.(type) {
	case *syntax.CallExpr:
		cmd.Assigns = append([]*syntax.Assign{assign}, cmd.Assigns...)
	case *syntax.Block:
		cmd.Stmts[0].Cmd.(*syntax.CallExpr).Assigns = append(cmd.Stmts[0].Cmd.(*syntax.CallExpr).Assigns, assign)
	}
}

// atStart is called before each command a job sends: the first time, it
// waits at the job's barrier, if it has one. The job's shell clears the
// variable, so later commands go straight on.
func (s *Shell) atStart(hc interp.HandlerContext) {
	v := hc.Env.Get(barrierVar)
	if !v.IsSet() || v.String() == "" {
		return
	}
	key := v.String() + "/" + hc.Env.Get(sessionVar).String()
	s.jobMu.Lock()
	b := s.barriers[v.String()]
	arrived := s.arrived[key]
	s.arrived[key] = true
	s.jobMu.Unlock()
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
	}
}
