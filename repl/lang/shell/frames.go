package shell

import (
	"context"
	"fmt"
	"io"
	"sync"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/words"
)

// MaxDepth is how deep the functions of one job (or of main) may call
// one another, as bash's FUNCNEST would bound it: a recursion with no
// end stops at once with a message, where it grew until the memory
// budget stopped it, minutes later.
const MaxDepth = 1000

// frameHook is where every function's body sends its stderr first: the
// open handler serves it with a frame of the caller's job, which closes
// when the body ends. Its NUL byte keeps scripts from naming it.
const frameHook = "\x00frame"

// frames counts the function calls under way, per job.
type frames struct {
	mu    sync.Mutex
	depth map[string]int
}

// framedFunctions makes each function body of node open a frame as it
// runs: `f() BODY` becomes `f() { BODY } 2>frameHook`.
func framedFunctions(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		fn, ok := n.(*syntax.FuncDecl)
		if ok && !framed(fn.Body) {
			hook := &syntax.Redirect{Op: syntax.RdrOut, N: &syntax.Lit{Value: "2"}, Word: jobs.QuotedWord(frameHook)}
			fn.Body = &syntax.Stmt{Cmd: &syntax.Block{Stmts: []*syntax.Stmt{fn.Body}}, Redirs: []*syntax.Redirect{hook}}
		}
		return true
	})
}

func framed(body *syntax.Stmt) bool {
	if len(body.Redirs) != 1 || len(body.Redirs[0].Word.Parts) != 1 {
		return false
	}
	q, ok := body.Redirs[0].Word.Parts[0].(*syntax.SglQuoted)
	return ok && q.Value == frameHook
}

// enter opens a frame of the caller's job, or fails past MaxDepth (an
// error that is no *os.PathError halts the interpreter, as bash ends the
// command past FUNCNEST; at the REPL, the next entry runs).
func (f *frames) enter(ctx context.Context) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	job := hc.Env.Get(jobs.IDVar).String() // "" in main
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.depth == nil {
		f.depth = map[string]int{}
	}
	if f.depth[job] >= MaxDepth {
		return nil, &words.Error{Status: 1, Msg: fmt.Sprintf("maximum function nesting level exceeded (%d): a function that calls itself with no end?", MaxDepth)}
	}
	f.depth[job]++
	return &frame{f: f, job: job, w: hc.Stderr}, nil
}

// frame is one function call under way: its stderr, and its end.
type frame struct {
	f    *frames
	job  string
	w    io.Writer
	once sync.Once
}

func (fr *frame) Read([]byte) (int, error)    { return 0, io.EOF }
func (fr *frame) Write(p []byte) (int, error) { return fr.w.Write(p) }

func (fr *frame) Close() error {
	fr.once.Do(func() {
		fr.f.mu.Lock()
		defer fr.f.mu.Unlock()
		if fr.f.depth[fr.job]--; fr.f.depth[fr.job] <= 0 {
			delete(fr.f.depth, fr.job)
		}
	})
	return nil
}
