package explore

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lab/check"
)

// redlockRace is two Redlock clients on three embedded nodes: each sends
// SET NX to A, B and C in turn, holds the lock on 2 of 3, and otherwise
// releases it on all three (compare-and-delete). With jump, a third
// session jumps node C's clock past the TTL meanwhile.
func redlockRace(jump bool) Script {
	ops := ""
	if jump {
		ops = " @ops clock jump C +11s &"
	}
	return inline("race.lab", "redlock up --nodes 3\n"+
		"@alice redlock acquire lock:x alice-1 & @bob redlock acquire lock:x bob-1 &"+ops+" wait\n"+
		"redlock down\n")
}

// redlockModel is an independent model of redlockRace: every order of
// the sessions' steps, each written "a:SET:A" (alice's SET on A),
// "b:EVAL:C" (bob's release on C), "o:clock:C" (the jump), and who holds
// the lock at the end ("alice", "bob", both: "alicebob", or ""). A SET
// takes a free node; a client with fewer than 2 of 3 releases on every
// node, which frees those that hold its own token; the jump frees C,
// whoever held it (its TTL ran out).
func redlockModel(jump bool) map[string]string {
	type client struct {
		name      string
		step, got int // step 0..2: the SETs on A, B, C; 3..5: the releases; 6: done
	}
	out := map[string]string{}
	var walk func(nodes [3]string, cs [2]client, jumped bool, trace []string)
	walk = func(nodes [3]string, cs [2]client, jumped bool, trace []string) {
		moved := false
		if jump && !jumped {
			ns := nodes
			ns[2], moved = "", true
			walk(ns, cs, true, append(slices.Clip(trace), "o:clock:C"))
		}
		for i, c := range cs {
			if c.step >= 6 || c.step == 3 && c.got >= 2 {
				continue
			}
			ns, n, what := nodes, c.step%3, "SET"
			switch {
			case c.step < 3 && ns[n] == "":
				ns[n], c.got = c.name, c.got+1
			case c.step >= 3:
				what = "EVAL"
				if ns[n] == c.name {
					ns[n] = ""
				}
			}
			c.step++
			next := cs
			next[i], moved = c, true
			walk(ns, next, jumped, append(slices.Clip(trace), c.name[:1]+":"+what+":"+string(rune('A'+n))))
		}
		if !moved {
			holder := ""
			for _, c := range cs {
				if c.got >= 2 {
					holder += c.name
				}
			}
			out[strings.Join(trace, " ")] = holder
		}
	}
	walk([3]string{}, [2]client{{name: "alice"}, {name: "bob"}}, false, nil)
	return out
}

// redlockTrace writes a schedule's steps as the model does: alice's SET
// on node A ("alice@A SET lock:x ...") is a:SET:A.
func redlockTrace(steps []string) string {
	var out []string
	for _, st := range steps {
		who, rest, _ := strings.Cut(st, " ")
		client, node, ok := strings.Cut(who, "@")
		if !ok {
			continue // a command to the lab's own server: none here
		}
		cmd, _, _ := strings.Cut(rest, " ")
		out = append(out, client[:1]+":"+cmd+":"+node)
	}
	return strings.Join(out, " ")
}

// holderOf is who a schedule's transcript says holds the lock.
func holderOf(output string) string {
	holder := ""
	for _, who := range []string{"alice", "bob"} {
		if strings.Contains(output, "↳ "+who+" holds lock:x on ") {
			holder += who
		}
	}
	return holder
}

// TestRedlockModel: explore --no-reduce runs exactly the model's orders
// of two Redlock clients' commands to three nodes, node by node, each
// ending with the holders the model says: one client always, never both
// (every schedule all clear); with node C's clock jumping meanwhile,
// both in some (TWO HOLDERS). The reduced search finds every verdict and
// holder the raw one does, in fewer schedules: a key on one node is not
// the same key on another.
func TestRedlockModel(t *testing.T) {
	for _, c := range []struct {
		jump    bool
		summary string
	}{
		{false, "explored 32 schedules (complete, raw): 32 all clear"},
		{true, "explored 320 schedules (complete, raw): 8 TWO HOLDERS, 312 all clear"},
	} {
		want := redlockModel(c.jump)
		got := map[string]string{}
		r, err := explore(context.Background(), redlockRace(c.jump), Options{Raw: true}, func(o *outcome) {
			got[redlockTrace(o.steps)] = holderOf(o.output)
			if both := holderOf(o.output) == "alicebob"; both != slices.Contains(o.bad, check.TwoHolders) {
				t.Errorf("%s: both hold %v, verdict %v", redlockTrace(o.steps), both, o.bad)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Schedules != len(want) || !r.Complete || !maps.Equal(got, want) {
			t.Fatalf("jump %v: explored %d schedules (complete %v), %d distinct; the model has %d\nonly explored: %v\nonly the model: %v",
				c.jump, r.Schedules, r.Complete, len(got), len(want), missing(got, want), missing(want, got))
		}
		byHolder := counts(want)
		if byHolder[""] != 0 || r.Summary() != c.summary {
			t.Errorf("jump %v: holders %v; %s", c.jump, byHolder, r.Summary())
		}
		t.Logf("jump %v: %d raw schedules, holders %v", c.jump, len(want), byHolder)
		reduced := map[string]bool{}
		red, err := explore(context.Background(), redlockRace(c.jump), Options{}, func(o *outcome) {
			if !o.cut {
				reduced[holderOf(o.output)] = true
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(reduced, setOf(byHolder)) || !slices.Equal(groups(red), groups(r)) || red.Schedules >= r.Schedules {
			t.Errorf("jump %v: reduced %s, holders %v; raw %s", c.jump, red.Summary(), reduced, r.Summary())
		}
	}
}

// setOf is the holders that some schedule ends with.
func setOf(byHolder map[string]int) map[string]bool {
	out := map[string]bool{}
	for holder := range byHolder {
		out[holder] = true
	}
	return out
}

// missing are the traces of a that b lacks, or holds with another holder.
func missing(a, b map[string]string) []string {
	var out []string
	for trace, holder := range a {
		if h, ok := b[trace]; !ok || h != holder {
			out = append(out, trace+" -> "+holder)
		}
	}
	slices.Sort(out)
	return out
}

// counts is how many schedules end with each holder.
func counts(m map[string]string) map[string]int {
	out := map[string]int{}
	for _, holder := range m {
		out[holder]++
	}
	return out
}

// TestRedlockNodesPerSchedule: every schedule starts nodes of its own and
// closes them with its shell; none is kept for the next schedule, as the
// lab's own server is (reset). Here no `redlock down` stops them: were a
// node kept, a later schedule would find lock:x held by an earlier one,
// and neither client would hold it.
func TestRedlockNodesPerSchedule(t *testing.T) {
	sc := inline("kept.lab", "redlock up --nodes 3\n@alice redlock acquire lock:x alice-1 & @bob redlock acquire lock:x bob-1 & wait\n")
	for _, workers := range []int{1, 4} {
		r, err := explore(context.Background(), sc, Options{Raw: true, Workers: workers}, func(o *outcome) {
			if h := holderOf(o.output); h != "alice" && h != "bob" {
				t.Errorf("%q: holder %q, want one of the two:\n%s", o.steps, h, o.output)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Schedules != 32 || !r.Complete {
			t.Errorf("%d workers: %s, want the 32 of TestRedlockModel", workers, r.Summary())
		}
	}
}
