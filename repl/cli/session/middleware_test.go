package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
)

// tracer is a middleware that writes down every command it sees, with its
// Call, and wraps what inner middlewares attached in its name.
type tracer struct {
	mu   sync.Mutex
	seen []string
}

func (tr *tracer) middleware(name string) Middleware {
	return func(next Do) Do {
		return func(ctx context.Context, c *Conn, args []string) (Event, error) {
			call := CallOf(ctx)
			tr.mu.Lock()
			tr.seen = append(tr.seen, fmt.Sprintf("%s %s tx=%v %s", name, call.Session, call.Transaction, strings.Join(args, " ")))
			tr.mu.Unlock()
			e, err := next(ctx, c, args)
			e.Probe = fmt.Sprintf("%s(%v)", name, e.Probe)
			return e, err
		}
	}
}

// events collects what a set's observer receives.
func observe(set *Set) func() []Event {
	var mu sync.Mutex
	var got []Event
	set.Observe(func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e)
	})
	return func() []Event {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// TestMiddlewareChain: session and one-shot commands pass through the
// middlewares, first outermost, which know the session and whether it is
// inside MULTI or WATCH; a pipeline (DoBatch) does not; the observer gets
// every event, with what the middlewares attached.
func TestMiddlewareChain(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		t.Run(kind, func(t *testing.T) {
			target := Target{Network: "tcp", Addr: addr}
			set := NewSet(target)
			defer set.Close()
			var tr tracer
			set.Use(tr.middleware("outer"), tr.middleware("inner"))
			events := observe(set)
			ctx := context.Background()
			alice := set.Get("alice")
			for _, cmd := range []string{"SET k v", "MULTI", "INCR n", "EXEC", "WATCH k", "GET k", "UNWATCH", "GET k"} {
				if _, err := alice.Do(ctx, strings.Fields(cmd)); err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
			}
			set.OneShot(ctx, target, "bob", []string{"GET", "k"})
			set.Get(Main).DoBatch(ctx, [][]string{{"SET", "b", "1"}, {"GET", "b"}})
			want := []string{"SET k v tx=false", "MULTI tx=false", "INCR n tx=true", "EXEC tx=true",
				"WATCH k tx=false", "GET k tx=true", "UNWATCH tx=true", "GET k tx=false"}
			var wantSeen []string
			for _, w := range want {
				cmd, tx, _ := strings.Cut(w, " tx=")
				wantSeen = append(wantSeen, "outer alice tx="+tx+" "+cmd, "inner alice tx="+tx+" "+cmd)
			}
			wantSeen = append(wantSeen, "outer bob tx=false GET k", "inner bob tx=false GET k")
			if !slices.Equal(tr.seen, wantSeen) {
				t.Errorf("the middlewares saw\n%s\nwant\n%s", strings.Join(tr.seen, "\n"), strings.Join(wantSeen, "\n"))
			}
			checkObserved(t, events())
		})
	}
}

func checkObserved(t *testing.T, got []Event) {
	t.Helper()
	var lines []string
	for _, e := range got {
		lines = append(lines, fmt.Sprintf("%s %s -> %s [%v]", e.Session, strings.Join(e.Args, " "), strings.TrimSpace(resp.Format(e.Args, e.Reply, false)), e.Probe))
	}
	want := []string{
		"alice SET k v -> OK [outer(inner(<nil>))]",
		"alice MULTI -> OK [outer(inner(<nil>))]",
		"alice INCR n -> QUEUED [outer(inner(<nil>))]",
		"alice EXEC -> 1 [outer(inner(<nil>))]",
		"alice WATCH k -> OK [outer(inner(<nil>))]",
		"alice GET k -> v [outer(inner(<nil>))]",
		"alice UNWATCH -> OK [outer(inner(<nil>))]",
		"alice GET k -> v [outer(inner(<nil>))]",
		"bob GET k -> v [outer(inner(<nil>))]",
		"main SET b 1 -> OK [<nil>]",
		"main GET b -> 1 [<nil>]",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("the observer got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
