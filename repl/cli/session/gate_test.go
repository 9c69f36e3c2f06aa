package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// turns is a Gate that gives sessions their turns in a fixed order, one
// command at a time: the next turn waits until the last one's reply came.
type turns struct {
	mu    sync.Mutex
	order []string      // the sessions, one entry per turn to come
	busy  bool          // a command is out
	moved chan struct{} // closed (and replaced) when a turn ends
}

func newTurns(order ...string) *turns { return &turns{order: order, moved: make(chan struct{})} }

func (g *turns) Turn(ctx context.Context, name string, _ []string) (func(Event), error) {
	for {
		g.mu.Lock()
		if !g.busy && len(g.order) > 0 && g.order[0] == name {
			g.order, g.busy = g.order[1:], true
			g.mu.Unlock()
			return g.release, nil
		}
		moved := g.moved
		g.mu.Unlock()
		select {
		case <-moved:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (g *turns) release(Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.busy = false
	close(g.moved)
	g.moved = make(chan struct{})
}

// TestGateOrder: two sessions push to one list at the same time; the
// server receives their commands in the order the gate gives the turns,
// whichever order that is.
func TestGateOrder(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		for _, order := range [][]string{{"b", "a", "a", "b"}, {"a", "b", "b", "a"}} {
			t.Run(kind+"/"+strings.Join(order, ""), func(t *testing.T) {
				set := NewSet(Target{Network: "tcp", Addr: addr})
				defer set.Close()
				set.Use(GateMiddleware(newTurns(order...)))
				list := "turns:" + strings.Join(order, "")
				var wg sync.WaitGroup
				for _, name := range []string{"a", "b"} {
					wg.Go(func() {
						for i := range 2 {
							if _, err := set.Get(name).Do(context.Background(), []string{"RPUSH", list, fmt.Sprint(name, i+1)}); err != nil {
								t.Errorf("%s RPUSH: %v", name, err)
							}
						}
					})
				}
				wg.Wait()
				r, err := set.Get(Main).Untraced().Do(context.Background(), []string{"LRANGE", list, "0", "-1"})
				var got []string
				for _, el := range r.Elems {
					got = append(got, el.Str[:1])
				}
				if err != nil || !slices.Equal(got, order) {
					t.Errorf("the list holds %v (%v); want the gate's order %v", r, err, order)
				}
			})
		}
	}
}

// shut is a Gate that gives no one a turn.
type shut struct{}

func (shut) Turn(ctx context.Context, _ string, _ []string) (func(Event), error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestGateRefused: a command whose turn never comes is cut by its ctx,
// never reaches the server, and the observer is told why.
func TestGateRefused(t *testing.T) {
	addr := redistest.Embedded(t)
	set := NewSet(Target{Network: "tcp", Addr: addr})
	defer set.Close()
	set.Use(GateMiddleware(shut{}))
	events := observe(set)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	sess := set.Get("alice")
	if _, err := sess.Do(ctx, []string{"SET", "k", "v"}); !errors.Is(err, context.Canceled) {
		t.Errorf("SET waiting for a turn that never comes: %v; want context.Canceled", err)
	}
	if r, err := sess.Untraced().Do(context.Background(), []string{"EXISTS", "k"}); err != nil || r.Int != 0 {
		t.Errorf("EXISTS k: %v, %v; the refused SET reached the server", r, err)
	}
	if got := events(); len(got) != 1 || got[0].Session != "alice" || !errors.Is(got[0].Err, context.Canceled) {
		t.Errorf("the observer got %+v; want alice's SET, cancelled", got)
	}
	if !sess.Connected() {
		t.Error("a command refused its turn marked the session not connected")
	}
}
