package timeline

import (
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// redlockAttempt is who's SET of tok sent at secs to A..E, each answered
// a millisecond later as answers says (OK, (nil) or down), and the
// checker's reading of it.
func redlockAttempt(c *quorum.Checker, secs float64, who, tok, answers string) Event {
	a := quorum.Attempt{Lab: 1, Nodes: 5, Session: who, Key: "lock:room:2pm", Token: tok, Start: at(secs), Validity: 9900 * time.Millisecond}
	e := Event{Session: who, Args: []string{"redlock", "acquire", "lock:room:2pm", tok}, Start: at(secs), End: at(secs + 0.001)}
	oks := 0
	for i, ans := range strings.Fields(answers) {
		s := quorum.Step{Node: string(rune('A' + i)), Args: []string{"SET", "lock:room:2pm", tok, "NX", "PX", "10000"}, Start: at(secs), End: at(secs + 0.001)}
		switch ans {
		case "OK":
			s.Reply, oks = check.Reply{Str: "OK"}, oks+1
		case "(nil)":
			s.Reply = check.Reply{Nil: true}
		default:
			s.NoAnswer = "node down"
		}
		a.Set = append(a.Set, s)
		e.Steps = append(e.Steps, Step{Node: s.Node, Args: s.Args, Answer: ans, Start: s.Start, End: s.End})
	}
	a.Granted = oks >= 3
	e.Reply = "holds it on 3/5, valid for 9.90s"
	c.Acquired(a)
	return e
}

// redlockClockJump is scripts/redlock-clock-jump.lab's run: alice holds
// A B C, C's clock jumps past the TTL, bob holds C D E; the holds are the
// checker's (repl/lab/quorum), as the recorder gives them.
func redlockClockJump() Timeline {
	c := quorum.New()
	events := []Event{redlockAttempt(c, 0.001, "alice", "alice-1", "OK OK OK down down")}
	events[0].Seq = 1
	jump := note(0.003, "main", check.Info, "node C's clock jumped +11s (now +11s from the lab's clock): its TTLs moved with it")
	jump.Seq = 1
	c.Fault(quorum.Fault{Lab: 1, Node: "C", Kind: quorum.Jump, By: 11 * time.Second, At: at(0.003)})
	events = append(events, redlockAttempt(c, 0.004, "bob", "bob-1", "(nil) (nil) OK OK OK"))
	events[1].Seq = 2
	c.Fault(quorum.Fault{Lab: 1, Kind: quorum.Down, At: at(0.006)})
	down := note(0.006, "main", check.Info, "redlock: nodes stopped")
	down.Seq = 2
	found, _ := c.Findings(quorum.AllLabs)
	return Build(runStart, events, []TimedNote{jump, down}, nil, found).WithNodes(runStart, c.Holds(at(0.006)))
}

// TestNodeColumns: a Redlock run has a column per node, showing each
// node's answer on the acquisition's row, and its holder until the hold
// ends (C's at the clock jump, all at redlock down).
func TestNodeColumns(t *testing.T) {
	tl := redlockClockJump()
	if strings.Join(tl.Nodes, " ") != "A B C D E" {
		t.Fatalf("nodes %q", tl.Nodes)
	}
	out := Terminal(tl, 120, Style{})
	for _, want := range []string{
		"│ A         │ B         │ C         │ D         │ E\n",
		"│ OK        │ OK        │ OK        │ down      │ down\n",
		"│ ┃ alice   │ ┃ alice   │ ✕ expired │           │\n",
		"│ (nil)     │ (nil)     │ OK        │ OK        │ OK\n",
		"│ ✕ stopped │ ✕ stopped │ ✕ stopped │ ✕ stopped │ ✕ stopped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal lacks %q:\n%s", want, out)
		}
	}
	compact := Compact(tl, 80, Style{})
	if !strings.Contains(compact, "[A OK · B OK · C OK · D down · E down]") {
		t.Errorf("compact lacks the nodes' answers:\n%s", compact)
	}
	if mmd := Mermaid(tl); !strings.Contains(mmd, "    P1->>NA: +0.001s SET lock:room:2pm alice-1 NX PX 10000\n    NA-->>P1: +0.002s OK\n") {
		t.Errorf("mermaid lacks alice's SET to node A:\n%s", mmd)
	}
}
