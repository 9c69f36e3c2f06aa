package sched

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/explore/commute"
	"github.com/locklab/locklab/repl/lang/jobs"
)

// StallAfter bounds, in wall-clock time, how long one schedule may go
// without the scheduler being able to decide anything (a command the
// server does not answer, a goroutine blocked somewhere it cannot see):
// the run is stopped and reported as stuck.
var StallAfter = 3 * time.Second // a variable: tests shorten it

// MaxSteps bounds one schedule: a script still running after so many
// steps (a loop that never ends) is stopped and reported as stuck.
const MaxSteps = 5000

// Plan is how one schedule is chosen: the choice list to replay, then
// the strategy's chooser (nil: the first command, the raw search's).
type Plan struct {
	Prefix  []int
	Chooser Chooser
}

// sched runs one schedule: it is the run's gate (one command at a time),
// its clock (virtual time) and its shell's tracker (jobs). It counts the
// goroutines doing local work (active); when none is, it lets exactly one
// thing happen: a job start, a sleeper's wake-up, or a session's command,
// the last chosen by the choice list (prefix), then by the chooser.
type Sched struct {
	v       *clock.Virtual
	prefix  []int
	chooser Chooser

	mu       sync.Mutex
	cond     *sync.Cond
	active   int       // goroutines not waiting on the scheduler
	turns    []*ticket // commands waiting at the gate
	starts   []*ticket // jobs waiting to start
	sleepers []*ticket // by deadline, then by the order they fell asleep
	jobs     int       // jobs started and not ended
	waiters  int       // shells waiting for their jobs
	finished bool      // the script's Run returned
	err      error     // why the schedule was stopped (a *StuckError)
	inflight []*Cmd    // the commands let go whose reply has not come back
	last     string    // the last step ("session command")
	moved    bool      // virtual time moved since the last step
	diverged bool      // the replayed prefix did not fit the run (nondeterminism)
	seq      int
	choices  []Choice          // every choice point met, and what was picked
	steps    []string          // the commands, in the order they went (every send)
	sched    []Step            // the steps as a schedule names them: a poll is one
	answers  map[string]answer // each session's last command, and its reply
	can      []*Cmd            // the commands that could go at this turn (reused)
	lastName string            // the session of the last step
	lastFrom string            // and its sender (Cmd.Sender)
	lastArgs []string          // and its command's words
	preempts int               // steps that took the turn from a session that could go on
	wakes    int               // sleepers woken since the last step
	scripts  commute.Scripts   // the scripts loaded so far, by SHA1
	between  between           // what runs between steps (Between)
	faults   faults            // the faults it may choose (InjectFaults)
}

// ticket is a goroutine waiting for the scheduler: a session's command
// (turns), a job to start (its Session only) or a sleeper (deadline).
type ticket struct {
	Cmd
	deadline time.Time // sleepers only
	seq      int
	at       int // the step a command went as (an index into Sched.sched)
	ok       chan struct{}
}

// Choice is a choice point of a schedule.
type Choice struct {
	Pick, N, At int      // N commands could go, Pick went; At steps had run
	Opts        []string // the commands that could go ("session command")
}

var (
	_ clock.Clock        = (*Sched)(nil)
	_ session.ServerGate = (*Sched)(nil)
	_ session.ReplyLoser = (*Sched)(nil)
	_ jobs.Tracker       = (*Sched)(nil)
)

// New makes the scheduler of one schedule; the script's own
// goroutine counts as active from the start.
func New(v *clock.Virtual, p Plan) *Sched {
	s := &Sched{v: v, prefix: p.Prefix, chooser: p.Chooser, active: 1, scripts: map[string]string{}, answers: map[string]answer{}}
	if s.chooser == nil {
		s.chooser = first{}
	}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// Now is the virtual time.
func (s *Sched) Now() time.Time { return s.v.Now() }

// Stamp is the time events are stamped with: virtual time, plus a
// nanosecond per step so far, so that steps at the same virtual instant
// are ordered as the server ran them (the annotator compares times).
func (s *Sched) Stamp() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v.Now().Add(time.Duration(len(s.steps)))
}

// Sleep waits until the scheduler has moved virtual time d on.
func (s *Sched) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := &ticket{deadline: s.v.Now().Add(d)}
	return s.block(ctx, &s.sleepers, t)
}

// Turn waits until the scheduler picks this command; its release takes
// the command's reply (a poll's repeat is told by it).
func (s *Sched) Turn(ctx context.Context, name string, args []string) (func(session.Event), error) {
	return s.wait(ctx, Cmd{Session: name, Line: strings.Join(args, " "), Args: args, Access: s.access(args)})
}

// TurnOn is Turn for a command session name sends to server, another
// than the lab's own (a Redlock node, on a connection of the lab's): a
// step of session.At(name, server), which touches only that server's
// keys (commute.Access.On), and whose sender is name (Cmd.Sender).
func (s *Sched) TurnOn(ctx context.Context, name, server string, args []string) (func(session.Event), error) {
	return s.wait(ctx, Cmd{Session: session.At(name, server), Server: server, Line: strings.Join(args, " "), Args: args,
		Access: s.access(args).On(server)})
}

// wait puts c on the turns and waits until the scheduler picks it.
func (s *Sched) wait(ctx context.Context, c Cmd) (func(session.Event), error) {
	t := &ticket{Cmd: c}
	if err := s.block(ctx, &s.turns, t); err != nil {
		return nil, err
	}
	return func(e session.Event) { s.replied(t, e) }, nil // the session stays active until it waits again
}

// access is what a command touches; it keeps the body of a script the
// command loads (SCRIPT LOAD, EVAL), for an EVALSHA of it later.
func (s *Sched) access(args []string) commute.Access {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(args) > 0 {
		s.scripts.Learn(args)
	}
	return commute.Of(args, s.scripts)
}

// replied takes a command whose reply came back off the in-flight list,
// and records its reply (see answered).
func (s *Sched) replied(t *ticket, e session.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.inflight, &t.Cmd); i >= 0 {
		s.inflight = slices.Delete(s.inflight, i, i+1)
	}
	if i := slices.Index(s.faults.losing, t.Session); i >= 0 {
		s.faults.losing = slices.Delete(s.faults.losing, i, i+1) // a reply to lose that never came (an error came instead)
	}
	s.answered(&t.Cmd, t.at, e)
}

// block puts t on list and waits until the scheduler lets it go (it
// counts the goroutine active again as it does), or ctx ends.
func (s *Sched) block(ctx context.Context, list *[]*ticket, t *ticket) error {
	s.mu.Lock()
	s.seq++
	t.seq, t.ok = s.seq, make(chan struct{})
	*list = append(*list, t)
	if list == &s.sleepers {
		slices.SortStableFunc(s.sleepers, func(a, b *ticket) int { return a.deadline.Compare(b.deadline) })
	}
	s.active--
	s.cond.Broadcast()
	s.mu.Unlock()
	select {
	case <-t.ok:
		return nil
	case <-ctx.Done():
		return s.leave(ctx, list, t)
	}
}

// leave takes a cancelled t off list; one let go meanwhile went on.
func (s *Sched) leave(ctx context.Context, list *[]*ticket, t *ticket) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.Index(*list, t)
	if i < 0 {
		return nil
	}
	*list = slices.Delete(*list, i, i+1)
	s.active++
	return ctx.Err()
}

// Ran is what a schedule did.
type Ran struct {
	Choices  []Choice // every choice point met, and what was picked
	Steps    []string // every command sent, in the order they went ("session command")
	Schedule []Step   // the same as a schedule's steps: a poll's repeats are one step
	Diverged bool     // the prefix did not fit the run (a choice past its options)
	Preempts int      // steps that took the turn from a session that could go on
	Faults   int      // faults that happened (InjectFaults)
}

// Ran is what the schedule did, once Drive has returned.
func (s *Sched) Ran() Ran {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Ran{Choices: s.choices, Steps: s.steps, Schedule: slices.Clone(s.sched), Diverged: s.diverged, Preempts: s.preempts, Faults: s.faults.happened}
}
