package sched

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
)

// fakeServer answers the fake labs' commands on virtual time, as Redis
// would for the few they use: SET (NX, PX), GET, EXISTS, DEL, INCR and
// RPUSH (a list kept as its length); a key with a deadline is gone once
// virtual time reaches it.
type fakeServer struct {
	v        *clock.Virtual
	mu       sync.Mutex
	vals     map[string]string
	deadline map[string]time.Time
}

func newFakeServer(v *clock.Virtual) *fakeServer {
	return &fakeServer{v: v, vals: map[string]string{}, deadline: map[string]time.Time{}}
}

// do answers one command.
func (f *fakeServer) do(args []string) resp.Reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, d := range f.deadline {
		if !f.v.Now().Before(d) {
			delete(f.vals, k)
			delete(f.deadline, k)
		}
	}
	if len(args) < 2 {
		return resp.Reply{Kind: resp.Error, Str: "ERR unknown command"}
	}
	k := args[1]
	_, exists := f.vals[k]
	one := map[bool]int64{true: 1}[exists]
	switch strings.ToUpper(args[0]) {
	case "SET":
		if slices.Contains(args, "NX") && exists {
			return resp.Reply{Kind: resp.Nil}
		}
		f.vals[k] = args[2]
		delete(f.deadline, k)
		if i := slices.Index(args, "PX"); i > 0 {
			ms, _ := strconv.Atoi(args[i+1])
			f.deadline[k] = f.v.Now().Add(time.Duration(ms) * time.Millisecond)
		}
		return resp.Reply{Kind: resp.Status, Str: "OK"}
	case "GET":
		if !exists {
			return resp.Reply{Kind: resp.Nil}
		}
		return resp.Reply{Kind: resp.Bulk, Str: f.vals[k]}
	case "EXISTS":
		return resp.Reply{Kind: resp.Int, Int: one}
	case "DEL":
		delete(f.vals, k)
		return resp.Reply{Kind: resp.Int, Int: one}
	case "INCR", "RPUSH":
		n, _ := strconv.Atoi(f.vals[k])
		f.vals[k] = strconv.Itoa(n + 1)
		return resp.Reply{Kind: resp.Int, Int: int64(n + 1)}
	}
	return resp.Reply{Kind: resp.Error, Str: "ERR unknown command"}
}

// act runs one action of a fake lab's session; false when its schedule
// was stopped. An action is a command, "sleep DUR", "retry EVERY
// COMMAND" (send it until it answers OK, sleeping EVERY between sends:
// book-locked --wait), "until COMMAND" (send it until it answers 1,
// with nothing between: a shell `until` loop reading a key) or "on NODE
// COMMAND" (a command to another server, a Redlock node: TurnOn).
func act(ctx context.Context, s *Sched, srv *fakeServer, name, a string) bool {
	words := strings.Fields(a)
	switch words[0] {
	case "sleep":
		return s.Sleep(ctx, duration(words[1])) == nil
	case "retry":
		every := duration(words[1])
		for {
			r, ok := send(ctx, s, srv, name, words[2:])
			if !ok || r.Kind == resp.Status || s.Sleep(ctx, every) != nil {
				return ok
			}
		}
	case "on": // on NODE CMD ...: a command to another server (TurnOn)
		release, err := s.TurnOn(ctx, name, words[1], words[2:])
		if err != nil {
			return false
		}
		release(session.Event{Session: name, Args: words[2:], Reply: srv.do(words[2:])})
		return true
	case "until":
		for {
			r, ok := send(ctx, s, srv, name, words[1:])
			if !ok || r.Int == 1 {
				return ok
			}
		}
	}
	_, ok := send(ctx, s, srv, name, words)
	return ok
}

// send is one command through the scheduler's gate, answered by srv.
func send(ctx context.Context, s *Sched, srv *fakeServer, name string, args []string) (resp.Reply, bool) {
	release, err := s.Turn(ctx, name, args)
	if err != nil {
		return resp.Reply{}, false
	}
	r := srv.do(args)
	release(session.Event{Session: name, Args: args, Reply: r})
	return r, true
}

func duration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}

// steps writes a schedule's steps, a poll as "bob SET lock b NX PX 2000
// x30" (its sends).
func steps(sch []Step) string {
	out := make([]string, len(sch))
	for i, st := range sch {
		out[i] = st.String()
		if st.Repeats > 0 {
			out[i] += fmt.Sprintf(" x%d", st.Sends())
		}
	}
	return strings.Join(out, "; ")
}

// sends counts the commands a schedule's steps stand for.
func sends(sch []Step) int {
	n := 0
	for _, st := range sch {
		n += st.Sends()
	}
	return n
}

// TestPollIsOneStep: bob retries a lock alice holds every 10 ms of
// virtual time; its 30 refusals, from +0 to +290ms, are one step, and the
// SET that takes the lock once it expired at +300ms is the next. The raw
// steps still have every send.
func TestPollIsOneStep(t *testing.T) {
	l := lab{
		"alice": {"SET lock a NX PX 300", "sleep 900ms", "RPUSH slot a"},
		"bob":   {"sleep 1ms", "retry 10ms SET lock b NX PX 2000", "RPUSH slot b"},
	}
	r := run(t, l, Plan{})
	want := "alice SET lock a NX PX 300; bob SET lock b NX PX 2000 x30; bob SET lock b NX PX 2000; bob RPUSH slot b; alice RPUSH slot a"
	if got := steps(r.Schedule); got != want {
		t.Errorf("schedule\n %s\nwant\n %s", got, want)
	}
	if len(r.Steps) != 34 || sends(r.Schedule) != len(r.Steps) {
		t.Errorf("%d raw steps, %d sends in the schedule; want 34 of each", len(r.Steps), sends(r.Schedule))
	}
}

// TestPollNotAStep: what is not a poll stays a step: the same command
// with another answer each time (INCR), a repeated write whose answer
// does not say it changed nothing (SET x 1 answers OK every time), and a
// read whose answer another session changed between its sends.
func TestPollNotAStep(t *testing.T) {
	for _, c := range []struct {
		l    lab
		want string
	}{
		{lab{"a": {"INCR n", "INCR n", "INCR n"}}, "a INCR n; a INCR n; a INCR n"},
		{lab{"a": {"SET x 1", "SET x 1"}}, "a SET x 1; a SET x 1"},
		{lab{"a": {"GET x", "sleep 2ms", "GET x"}, "b": {"sleep 1ms", "SET x 1"}}, "a GET x; b SET x 1; a GET x"},
		{lab{"a": {"GET x", "GET y", "GET x"}}, "a GET x; a GET y; a GET x"},
		{lab{"a": {"GET x", "sleep 1ms", "GET x", "SET x 1", "GET x"}}, "a GET x x2; a SET x 1; a GET x"},
	} {
		if got := steps(run(t, c.l, Plan{}).Schedule); got != c.want {
			t.Errorf("%v: schedule\n %s\nwant\n %s", c.l, got, c.want)
		}
	}
}

// TestPollUntilChanged: main polls `until EXISTS k` while w does three
// things, the last of which sets k. In every raw order (main's repeats
// go only after another step: see repeats) main's refusals are one step
// wherever its repeats fell, and the EXISTS that sees k is the next: the
// raw search's schedules come down to the four orders of a model, main's
// poll starting before w's first, second or third step, or main seeing k
// at once.
func TestPollUntilChanged(t *testing.T) {
	l := lab{"main": {"until EXISTS k"}, "w": {"GET x", "GET y", "SET k 1"}}
	w := walk(t, l, DFS{})
	seen := map[string]bool{}
	for _, r := range w.runs {
		var names []string
		for _, st := range r.Schedule {
			names = append(names, st.Session)
		}
		seen[strings.Join(names, " ")] = true
		if sends(r.Schedule) != len(r.Steps) {
			t.Errorf("%s: %d sends in the schedule, %d raw steps", steps(r.Schedule), sends(r.Schedule), len(r.Steps))
		}
	}
	want := []string{"main w w w main", "w main w w main", "w w main w main", "w w w main"}
	if got := slicesSorted(seen); !slices.Equal(got, want) {
		t.Errorf("the schedules, polls as one step: %q; want %q", got, want)
	}
	if len(w.runs) <= len(want) {
		t.Errorf("%d raw schedules: the test needs orders that differ only where main's repeats fell", len(w.runs))
	}
}

// slicesSorted is a set's members, sorted.
func slicesSorted(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestPollsOfTwo: two workers retry one lock; whichever takes it when it
// expires, each one's refusals before are one step, so every schedule of
// the raw search has as many steps however many times each retried.
func TestPollsOfTwo(t *testing.T) {
	l := lab{
		"w1": {"SET lock 1 NX PX 50", "sleep 100ms", "RPUSH slot 1"},
		"w2": {"sleep 1ms", "retry 10ms SET lock 2 NX PX 50"},
		"w3": {"sleep 1ms", "retry 10ms SET lock 3 NX PX 50"},
	}
	w := walk(t, l, DFS{})
	takers := map[string]bool{}
	for _, r := range w.runs {
		if len(r.Schedule) != 6 {
			t.Errorf("%d steps: %s", len(r.Schedule), steps(r.Schedule))
		}
		takers[r.Schedule[3].Session] = true // the SET that took the lock
	}
	if !takers["w2"] || !takers["w3"] {
		t.Errorf("the lock went to %v in every order; want both workers, in some order each", takers)
	}
}
