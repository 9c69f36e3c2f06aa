package explore

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/explore/sched"
)

// pauseLockModel is an independent model of testdata/pause-lock.lab
// under --no-reduce --faults 1 with the fault kinds given: two clients
// each take the lock (SET NX: the one that finds it taken is done), note
// it (RPUSH holders), and release it (compare-and-delete). At any turn
// before the one fault a schedule may have, a fault may come instead of
// a command:
//   - time: while the lock exists (it has the only TTL), time runs on
//     until it expires;
//   - restart: while any key exists, the server loses every key;
//   - lost-reply: a client's next command (every one writes) goes, and
//     the client gets no reply: a SET taken for a failure (the client
//     is done, the lock held on the server), a release it no longer
//     believes it holds the lock after. Main's first DEL may lose its
//     reply too. A command with no reply leaves the run with no verdict.
//
// It counts the schedules by verdict: a holder whose lock expired under
// it before its release (EXPIRED WHILE WORKING); a second client taking
// the lock while the first still believed it held it (OVERLAP: from its
// SET to its release), TWO HOLDERS too when a restart took the first
// one's lock.
func pauseLockModel(kinds ...string) map[string]int {
	counts := map[string]int{}
	var walk func(m lockModel)
	walk = func(m lockModel) {
		opts := m.options(kinds)
		if len(opts) == 0 {
			counts[m.group()]++
			return
		}
		for _, o := range opts {
			walk(m.step(o))
		}
	}
	start := lockModel{lock: -1}
	walk(start)
	if slices.Contains(kinds, "lost-reply") {
		start.fault = "lost-reply" // main's DEL, its reply lost
		walk(start)
	}
	return counts
}

// lockModel is one state of pauseLockModel's lab.
type lockModel struct {
	lock     int    // the lock's holder, or -1
	noted    bool   // the holders list exists
	pc       [2]int // each client's next step: 0 SET, 1 RPUSH, 2 release, 3 done
	fault    string // the fault that happened ("": none yet)
	believes [2]bool
	expired  bool // a lock ran out under its holder
	overlaps bool // a client took the lock while the other believed it held it
	lost     bool // a restart took a lock its holder believed it held (the TWO HOLDERS' first half)
	two      bool
}

// options are what may happen next: a client's step ("0", "1"), and the
// faults of kinds that could change something.
func (m lockModel) options(kinds []string) []string {
	var opts []string
	for i := range 2 {
		if m.pc[i] < 3 {
			opts = append(opts, string(rune('0'+i)))
		}
	}
	if len(opts) == 0 || m.fault != "" {
		return opts
	}
	if slices.Contains(kinds, "time") && m.lock >= 0 {
		opts = append(opts, "time")
	}
	if slices.Contains(kinds, "restart") && (m.lock >= 0 || m.noted) {
		opts = append(opts, "restart")
	}
	if slices.Contains(kinds, "lost-reply") {
		for i := range 2 {
			if m.pc[i] < 3 {
				opts = append(opts, "lost"+string(rune('0'+i)))
			}
		}
	}
	return opts
}

// step is the state after o happened.
func (m lockModel) step(o string) lockModel {
	switch o {
	case "time":
		m.lock, m.fault, m.expired = -1, o, true
		return m
	case "restart":
		m.lost = m.lost || m.lock >= 0
		m.lock, m.noted, m.fault = -1, false, o
		return m
	case "lost0", "lost1":
		return m.lostReply(int(o[4] - '0'))
	}
	i := int(o[0] - '0')
	switch m.pc[i] {
	case 0:
		if m.lock >= 0 {
			m.pc[i] = 3 // not acquired: done
			return m
		}
		if m.believes[1-i] {
			m.overlaps, m.two = true, m.two || m.lost
		}
		m.lock, m.pc[i], m.believes[i] = i, 1, true
	case 1:
		m.noted, m.pc[i] = true, 2
	default:
		if m.lock == i {
			m.lock = -1
		}
		m.pc[i], m.believes[i] = 3, false
	}
	return m
}

// lostReply is client i's next command run by the server, its reply
// lost.
func (m lockModel) lostReply(i int) lockModel {
	m.fault = "lost-reply"
	switch m.pc[i] {
	case 0: // the SET: taken for a failure, the lock held if it was free
		if m.lock < 0 {
			m.lock = i
		}
		m.pc[i] = 3
	case 1:
		m.noted, m.pc[i] = true, 2
	default: // the release: it no longer believes
		if m.lock == i {
			m.lock = -1
		}
		m.pc[i], m.believes[i] = 3, false
	}
	return m
}

// group names the model's outcome as the summary does.
func (m lockModel) group() string {
	if m.fault == "lost-reply" {
		return noVerdict // a command got no reply
	}
	var kinds []string
	if m.expired {
		kinds = append(kinds, "EXPIRED WHILE WORKING")
	}
	if m.overlaps {
		kinds = append(kinds, "OVERLAP")
	}
	if m.two {
		kinds = append(kinds, "TWO HOLDERS")
	}
	if len(kinds) == 0 {
		return allClear
	}
	return strings.Join(kinds, " + ")
}

// TestFaultsPauseModel: explore --no-reduce --faults 1 runs exactly the
// model's schedules of pause-lock.lab, with the model's verdicts, for
// each kind of fault and both; with no fault every schedule is all
// clear; and the reduced search finds the same verdicts in fewer
// schedules.
func TestFaultsPauseModel(t *testing.T) {
	sc := script(t, "testdata/pause-lock.lab")
	for _, kinds := range []string{"time", "restart", "lost-reply", ""} {
		want := pauseLockModel(strings.Split(cmp.Or(kinds, "time,restart,lost-reply"), ",")...)
		raw, err := Explore(context.Background(), sc, Options{Raw: true, Faults: 1, FaultKinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(raw.Groups, want) || !raw.Complete || len(want) < 2 {
			t.Errorf("--fault-kinds %q: explore %v (complete %v), the model %v", kinds, raw.Groups, raw.Complete, want)
		}
		reduced, err := Explore(context.Background(), sc, Options{Faults: 1, FaultKinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(groups(reduced), groups(raw)) || reduced.Schedules >= raw.Schedules {
			t.Errorf("--fault-kinds %q:\nraw: %s\nreduced: %s", kinds, raw.Summary(), reduced.Summary())
		}
	}
	none, err := Explore(context.Background(), sc, Options{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := none.Summary(); got != "explored 6 schedules (complete, raw): 6 all clear" {
		t.Errorf("without faults: %s", got)
	}
}

// TestFaultsShortestStory: on the lesson's locked booking, which holds in
// every order, one pause is enough for a double booking, and the shortest
// such story is a pause right after the first holder checked the count:
// its lock expires, the other bidder takes it, checks and books too. The
// report is the same, byte for byte, every time.
func TestFaultsShortestStory(t *testing.T) {
	sc := script(t, "../../scripts/locked-booking.lab")
	reports := reportTwice(t, sc, Options{Faults: 1, FaultKinds: "time", Property: "double-booking"})
	for _, want := range []string{
		"  3. alice LLEN room:2pm:bookings\n  4. ⚡ time +2s\n  5. bob SET lock:room:2pm token-bob NX PX 2000\n",
		"⚡ time runs on 2s while no session runs (a pause): lock:room:2pm's TTL runs out\n",
		"verdict: DOUBLE BOOKING",
	} {
		if !strings.Contains(reports[0], want) {
			t.Errorf("the report lacks %q:\n%s", want, reports[0])
		}
	}
	if reports[0] != reports[1] {
		t.Errorf("two reports differ:\n%s\n---\n%s", reports[0], reports[1])
	}
}

// redlockFaultModel is an independent model of testdata/redlock-plain.lab
// (two Redlock clients, three nodes, no fault written) under --no-reduce
// --faults 1 --fault-kinds restart (or clock-jump, which frees a node's
// key the same way): each client sends SET NX to A, B and C in turn,
// holds the lock on 2 of 3, and otherwise releases it on all three
// (compare-and-delete). At any turn before the one fault, a node that
// holds a key may lose it (a restart, empty; a jump of its clock to the
// key's expiry). It counts the schedules by verdict: TWO HOLDERS when
// both clients end up holding a majority.
func redlockFaultModel() map[string]int {
	type client struct{ step, got int } // step 0..2: the SETs on A, B, C; 3..5: the releases; 6: done
	counts := map[string]int{}
	var walk func(nodes [3]int, cs [2]client, fault bool)
	walk = func(nodes [3]int, cs [2]client, fault bool) { // nodes: 0 free, 1 alice's, 2 bob's
		moved := false
		for i, c := range cs {
			if c.step >= 6 || c.step == 3 && c.got >= 2 {
				continue
			}
			ns, n := nodes, c.step%3
			switch {
			case c.step < 3 && ns[n] == 0:
				ns[n], c.got = i+1, c.got+1
			case c.step >= 3 && ns[n] == i+1:
				ns[n] = 0
			}
			c.step++
			next := cs
			next[i], moved = c, true
			walk(ns, next, fault)
		}
		if !moved {
			if cs[0].got >= 2 && cs[1].got >= 2 {
				counts["TWO HOLDERS"]++
			} else {
				counts[allClear]++
			}
			return
		}
		for n := range nodes {
			if !fault && nodes[n] != 0 {
				ns := nodes
				ns[n] = 0
				walk(ns, cs, true)
			}
		}
	}
	walk([3]int{}, [2]client{}, false)
	return counts
}

// TestFaultsRedlockStories: from a Redlock script with no fault in it,
// explore finds two of Kleppmann's stories on its own: a node restarting
// empty, or a node's clock jumping, between one client's SET there and
// the other's, lets both hold a majority (TWO HOLDERS). Without faults
// every schedule is all clear. The raw searches run exactly the model's
// schedules with its verdicts; the reduced ones find the same verdicts,
// and the shortest story has one fault.
func TestFaultsRedlockStories(t *testing.T) {
	sc := script(t, "testdata/redlock-plain.lab")
	none, err := Explore(context.Background(), sc, Options{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(none.Groups) != 1 || none.Groups[allClear] == 0 {
		t.Errorf("without faults: %s", none.Summary())
	}
	want := redlockFaultModel()
	for _, kind := range []string{"restart", "clock-jump"} {
		raw, err := Explore(context.Background(), sc, Options{Raw: true, Faults: 1, FaultKinds: kind})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(raw.Groups, want) || !raw.Complete || want["TWO HOLDERS"] == 0 {
			t.Errorf("%s: explore %v (complete %v), the model %v", kind, raw.Groups, raw.Complete, want)
		}
		reduced, err := Explore(context.Background(), sc, Options{Faults: 1, FaultKinds: kind})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(groups(reduced), groups(raw)) || reduced.shortest == nil || reduced.shortest.faults != 1 {
			t.Errorf("%s:\nraw: %s\nreduced: %s", kind, raw.Summary(), reduced.Summary())
		}
	}
}

// TestFaultsRedlockPause: Kleppmann's third story, from a script with no
// fault in it (clients that acquire with retries, check, book and
// release): with no fault one booking in every order; one pause finds a
// schedule in which alice's lock expires between her check and her
// booking while bob's retry takes it and books (DOUBLE BOOKING +
// OVERLAP), the pause (⚡ time) coming after alice's check.
func TestFaultsRedlockPause(t *testing.T) {
	sc := script(t, "testdata/redlock-pause-plain.lab")
	none, err := Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := none.Summary(); !none.Complete || len(none.Groups) != 1 || none.Groups[allClear] == 0 {
		t.Errorf("without faults: %s", got)
	}
	r, err := Explore(context.Background(), sc, Options{Faults: 1, FaultKinds: "time", Property: "double-booking", Bound: Bound{Schedules: 400}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Groups["DOUBLE BOOKING + OVERLAP"] == 0 || r.shortest == nil || r.shortest.faults != 1 {
		t.Fatalf("with a pause: %s", r.Summary())
	}
	steps := strings.Join(r.shortest.steps, "\n")
	check := strings.Index(steps, "alice LLEN room:2pm:bookings")
	pause := strings.Index(steps, "⚡ time +2s")
	book := strings.Index(steps, "alice RPUSH room:2pm:bookings alice")
	if check < 0 || pause < check || book < pause {
		t.Errorf("the story's steps:\n%s", steps)
	}
}

// TestFaultsSampled: a random search (PCT, random walks) draws faults
// too, says so in its mode, and its shortest failing schedule replays.
func TestFaultsSampled(t *testing.T) {
	sc := script(t, "../../scripts/locked-booking.lab")
	for _, o := range []Options{{Random: 30, Seed: 1, Faults: 1, FaultKinds: "time"}, {Strategy: sched.RandomWalk{N: 30}, Seed: 1, Faults: 1, FaultKinds: "time"}} {
		r, err := Explore(context.Background(), sc, o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Summary(), "at most 1 fault (time) a schedule") || r.Groups[allClear] == r.Schedules {
			t.Errorf("a sampled search with faults: %s", r.Summary())
		}
		var b strings.Builder
		if _, err := r.Report(context.Background(), &b, sc, 0); err != nil || !strings.Contains(b.String(), "⚡") {
			t.Errorf("its shortest failing schedule: %v\n%s", err, b.String())
		}
	}
}
