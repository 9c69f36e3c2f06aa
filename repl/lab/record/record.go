package record

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/words"
)

// MaxEvents bounds the commands a run keeps for its timeline: the last
// ones, as a ring (the annotator and the verdict read every command; only
// the picture forgets the oldest, and says how many).
const MaxEvents = 20000

// AnySession keys the last reply printed by any session.
const anySession = "\x00any"

// Recorder is one run's record. It is safe for concurrent use by the
// run's sessions.
type Recorder struct {
	mu        sync.Mutex
	ann       *check.Annotator
	quorum    *quorum.Checker // the Redlock nodes' steps (lesson 5)
	start     time.Time
	now       func() time.Time
	seats     map[string]int64 // slots' seats as told, kept from run to run
	events    []timeline.Event
	notes     []timeline.TimedNote
	expects   int  // expectations since the last summary
	failed    int  // ... and those that failed
	anyFailed bool // an expectation failed since locklab began
	redisErrs int
	replies   map[string]string // session -> raw text of its last printed reply
	unjudged  int               // events since the last verdict

	failures     int    // commands of the run that ended in an error
	firstFailure string // ... the first of them

	kept    int // commands kept for the timeline since the run began (the last Seq)
	dropped int // ... of which the oldest were dropped (see MaxEvents)

	shown    []check.Finding // the verdict the run showed last
	hasShown bool            // whether it showed one
}

// Part is the run's record in each shell: the shell gives its own (the
// printer records into it), and the lab's words read it.
var Part = words.NewPart(New)

// New makes a recorder whose run begins now.
func New() *Recorder { return NewClock(time.Now) }

// NewClock makes a recorder whose times are now's (a virtual clock's).
func NewClock(now func() time.Time) *Recorder {
	r := &Recorder{now: now}
	r.Reset()
	return r
}

// Reset begins a new run: fresh lock and slot history, times measured
// from now. Expectations are counted on until a summary takes them (see
// TakeExpectations).
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.start = r.now()
	r.ann = check.New(r.start)
	for slot, n := range r.seats {
		r.ann.SetSeats(slot, n)
	}
	r.quorum = quorum.New()
	r.events, r.notes = nil, nil
	r.failures, r.firstFailure = 0, ""
	r.replies = map[string]string{}
	r.shown, r.hasShown = nil, false
	r.kept, r.dropped = 0, 0
}

// Start is when the run began.
func (r *Recorder) Start() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start
}

// Sending tells the annotator a command is about to be sent.
func (r *Recorder) Sending(name string, args []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ann.Sending(name, args)
}

// Turn is an event's place in the order in which the server ran the
// commands (a probe.Flight): Wait blocks until the events the server ran
// before it are taken; Take says it is being taken and returns by when
// the server had run it.
type Turn interface {
	Wait()
	Take() time.Time
}

// Observe feeds one event to the annotator, keeps it for the timeline and
// passes its notes to say. An event with a turn (one the probe read the
// server's clock for) first waits for it, so that the annotator reads
// such events in the order the server ran them; one without (turn nil)
// goes in the order it arrives. say is called before any later event is
// fed: printing there keeps the notes in the same order.
func (r *Recorder) Observe(e session.Event, c check.Event, turn Turn, say func([]check.Note)) {
	if turn != nil {
		turn.Wait()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if turn != nil {
		e.End = turn.Take()
		c.End = e.End
	}
	notes := r.ann.Observe(c)
	r.quorum.Command(e.Session, e.Args, e.Start)
	r.unjudged++
	r.keep(e, notes)
	say(notes)
}

// Injected keeps a fault explore made happen at t (what names it: "⚡
// time +2s"; note says what it did) for the timeline, in a lane of its
// own, as an event whose reply is the note: the picture shows where it
// fell among the commands. The annotator does not read it.
func (r *Recorder) Injected(t time.Time, lane, what, note string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(timeline.Event{Session: lane, Args: strings.Fields(what), Reply: note, Start: t, End: t})
}

// Unanswered takes an event that got no reply (its Err says why), and
// whose command the server may have run and a probe read (turn, nil for
// none): its turn in the server's order is let go, so that the events
// after it in that order do not wait for it, and it is kept for the
// timeline ("no reply"). The annotator reads it as unanswered
// (check.Annotator.Unanswered): its session learnt nothing from it.
func (r *Recorder) Unanswered(e session.Event, c check.Event, turn Turn) {
	if turn == nil {
		return
	}
	turn.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	e.End = turn.Take()
	c.End = e.End
	r.ann.Unanswered(c)
	r.keep(e, nil)
}

// keep keeps an event and its notes for the timeline, numbered in the
// order the annotator read them. r.mu is held.
func (r *Recorder) keep(e session.Event, notes []check.Note) {
	reply := session.RedactText(e.Args, strings.ReplaceAll(RawText(e.Reply), "\n", " "))
	if e.Err != nil {
		reply = "(no reply: " + e.Err.Error() + ")"
	}
	seq := r.add(timeline.Event{Session: e.Session, Args: session.Redact(e.Args), Reply: reply, Nil: e.Reply.Kind == resp.Nil, Start: e.Start, End: e.End})
	for _, n := range notes {
		r.notes = append(r.notes, timeline.TimedNote{Note: n, At: e.End, Seq: seq})
	}
}

// add keeps e for the timeline as the next command and returns its Seq.
// Past MaxEvents the oldest tenth goes, with its notes. r.mu is held.
func (r *Recorder) add(e timeline.Event) int {
	r.kept++
	e.Seq = r.kept
	r.events = append(r.events, e)
	if len(r.events) > MaxEvents {
		cut := MaxEvents / 10
		last := r.events[cut-1].Seq
		r.events = slices.Clone(r.events[cut:])
		r.notes = slices.DeleteFunc(r.notes, func(n timeline.TimedNote) bool { return n.Seq <= last })
		r.dropped += cut
	}
	return e.Seq
}

// Dropped is how many of the run's oldest commands the timeline no longer
// keeps (see MaxEvents).
func (r *Recorder) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// SetSeats tells the annotator how many bookings slot may hold; a new
// run keeps what it was told (`seats SLOT N` on one line, the bidders on
// the next).
func (r *Recorder) SetSeats(slot string, n int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seats == nil {
		r.seats = map[string]int64{}
	}
	r.seats[slot] = n
	r.ann.SetSeats(slot, n)
}

// Failover tells the annotator a replica was promoted at t.
func (r *Recorder) Failover(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ann.Failover(t)
}

// Lost tells the annotator the server lost its data at t, how saying so
// (check.LostInRestart).
func (r *Recorder) Lost(t time.Time, how string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ann.Lost(t, how)
}

// Slots are the booking slots the run touched.
func (r *Recorder) Slots() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ann.Slots()
}

// Verdict is the verdict as it stands, given each slot's length as the
// server reports it now (-1: unknown), and the run's failed commands
// (any: NO VERDICT rather than all clear).
func (r *Recorder) Verdict(lengths map[string]int64) []check.Finding {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.verdict(lengths)
}

// Judge is the verdict as it stands: each slot judged by its length as
// main's server reports it now (-1: unknown, which the verdict says
// rather than guess 0), then the lock findings.
func (r *Recorder) Judge(ctx context.Context, main *session.Session) []check.Finding {
	return r.Verdict(main.Lengths(ctx, r.Slots()))
}

// Showed remembers the verdict the run showed.
func (r *Recorder) Showed(findings []check.Finding) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown, r.hasShown = findings, true
}

// EndVerdict is the verdict the run ended with, as it showed it (explore
// groups schedules by it); a run that showed none is judged now.
func (r *Recorder) EndVerdict(ctx context.Context, main *session.Session) []check.Finding {
	r.mu.Lock()
	shown, ok := r.shown, r.hasShown
	r.mu.Unlock()
	if ok {
		return shown
	}
	return r.Judge(ctx, main)
}

func (r *Recorder) verdict(lengths map[string]int64) []check.Finding {
	return r.ann.Judge(lengths, r.quorum.Other(), check.Failed{Count: r.failures, First: r.firstFailure})
}

// Judged says a verdict on the run so far was given, and reports
// whether anything happened since the last one: a run inside a run (a
// script from the prompt) is judged once, by itself.
func (r *Recorder) Judged() (news bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	news, r.unjudged = r.unjudged > 0, 0
	return news
}

// Timeline is the picture of the run so far, with verdict.
func (r *Recorder) Timeline(verdict []check.Finding) timeline.Timeline {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	t := timeline.Build(r.start, r.events, r.notes, r.ann.Holdings(now), verdict).WithNodes(r.start, r.quorum.Holds(now))
	t.Dropped = r.dropped
	return t
}

// Commands are the run's commands so far, as the timeline keeps them
// (the last MaxEvents), in the order the annotator read them.
func (r *Recorder) Commands() []timeline.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}
