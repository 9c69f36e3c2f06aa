package sched

import (
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/explore/poll"
)

// Step is one step of a schedule as the report and a saved schedule name
// it: a session's command, or a poll. A poll is a session sending the
// same command again and getting the same answer again, one that changed
// nothing (package poll): a retry loop, a macro's --wait, a shell `until`
// loop reading a key. The sends after the first are not steps of their
// own but Repeats of the first. A poll lasts until the answer changes
// (the send that sees the change is the next step) or the session sends
// something else.
type Step struct {
	Session string // the session that sent it
	Line    string // the command's words, joined by spaces
	Repeats int    // how many more times it was sent for the same answer (0: not a poll)
	Saved   string // a fault's step (Session FaultSession): as a saved schedule's line names it
	Lost    bool   // the command's reply was lost (a lost-reply fault)
}

// String is the step as the raw steps name it: "session command", and
// "⚡ reply lost" after a command whose reply was lost.
func (st Step) String() string {
	if st.Lost {
		return st.Session + " " + st.Line + " " + LostMark
	}
	return st.Session + " " + st.Line
}

// LostMark follows a step whose reply was lost, where steps are listed.
const LostMark = "⚡ reply lost"

// Sends is how many times the step's command went: 1, or 1 + Repeats.
func (st Step) Sends() int { return 1 + st.Repeats }

// answered records the reply of the command that went as step at of the
// schedule, sent by c.Session; a poll's repeat of the session's last
// command (package poll) is taken into that command's step (nothing else
// can have stepped since it went: its session stays active until it
// waits again). Called with s.mu held.
func (s *Sched) answered(c *Cmd, at int, e session.Event) {
	now := poll.Of(c.Args, e)
	last, had := s.answers[c.Session]
	if had && poll.Repeats(last.Answer, now) && at == len(s.sched)-1 {
		s.sched = s.sched[:at]
		s.sched[last.at].Repeats++
		at = last.at
	}
	s.answers[c.Session] = answer{Answer: now, at: at}
}

// answer is a session's last command and its reply, and the step it
// went as (or the poll it repeated): an index into Sched.sched.
type answer struct {
	poll.Answer
	at int
}
