package lab

import (
	"context"
	"io"
	"time"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/capture"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lab/reply"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/words"
)

// Run is the lab's side of the runs one shell drives (a words.Observer):
// the record every command goes into, and the printer that prints its
// replies with their notes and the verdict.
type Run struct {
	*reply.Printer
	rec   *record.Recorder
	tape  *capture.Capture // a REPL session being recorded as a lab
	parts *words.Parts     // the shell's features' state (Install)
}

var _ words.Observer = (*Run)(nil)

// NewRun is the observer of a shell's runs.
func NewRun(c words.ObserverConfig) *Run {
	rec := record.NewClock(c.Now)
	return &Run{rec: rec, tape: &capture.Capture{},
		Printer: &reply.Printer{Out: c.Out, Rec: rec, TTY: c.TTY, Interactive: c.Interactive, Notes: c.Notes, Trace: c.Trace}}
}

// Observe is NewRun as a shell's Config wants it.
func Observe(c words.ObserverConfig) words.Observer { return NewRun(c) }

// Install gives the lab's words the run's record and printer.
func (r *Run) Install(p *words.Parts) {
	r.parts = p
	record.Part.Put(p, r.rec)
	reply.Part.Put(p, r.Printer)
	capture.Part.Put(p, r.tape)
}

// Deliver prints a reply with its notes (reply.Printer), and shows it to
// a recording of the session.
func (r *Run) Deliver(stderr, w io.Writer, ev session.Event, mode cliflags.Output, exitOnError bool) {
	r.Printer.Deliver(stderr, w, ev, mode, exitOnError)
	r.tape.Saw(ev, mode != words.Quiet)
}

// Record starts recording the session into file (--record FILE.lab).
func (r *Run) Record(file string) error { return r.tape.Start(file) }

// StopRecording ends a recording with the run's verdict and says which
// file it wrote; an error when none was being made.
func (r *Run) StopRecording(ctx context.Context, main *session.Session) (string, error) {
	return r.tape.Stop(recordedKinds(r.rec.Judge(ctx, main)))
}

// Entered gives a recording of the session the entry that ran.
func (r *Run) Entered(e words.Entry) { r.tape.Entered(e) }

func (r *Run) Sending(name string, args []string)      { r.rec.Sending(name, args) }
func (r *Run) Failed(what string)                      { r.rec.Failed(what) }
func (r *Run) Unanswered(ev session.Event)             { r.rec.Unanswered(ev, probe.CheckEvent(ev), turnOf(ev)) }
func (r *Run) Begin()                                  { r.rec.Reset() }
func (r *Run) Start() time.Time                        { return r.rec.Start() }
func (r *Run) Judged() bool                            { return r.rec.Judged() }
func (r *Run) TakeExpectations() (checked, failed int) { return r.rec.TakeExpectations() }
func (r *Run) AddExpectations(checked, failed int)     { r.rec.AddExpectations(checked, failed) }
func (r *Run) AnyFailed() bool                         { return r.rec.AnyFailed() }
func (r *Run) RedisErrors() int                        { return r.rec.RedisErrors() }

// Lost tells the checker the server lost its data at t, how saying so
// (check.LostInRestart): explore's restart fault.
func (r *Run) Lost(t time.Time, how string) { r.rec.Lost(t, how) }

// Believed is what the checker believes the server holds now: its lock
// keys and slots (explore --oracle compares them with the server).
func (r *Run) Believed() ([]check.LockBelief, []check.SlotBelief) { return r.rec.Believed() }

// Verdict prints the verdict on the run so far to w (with notes on).
func (r *Run) Verdict(ctx context.Context, w io.Writer, main *session.Session) {
	r.tape.Found(recordedKinds(r.Printer.Judge(ctx, w, main)))
}

// EndVerdict is the verdict the run ended with, as it showed it (explore
// groups schedules by it); a run that showed none is judged now.
func (r *Run) EndVerdict(ctx context.Context, main *session.Session) []check.Finding {
	return r.rec.EndVerdict(ctx, main)
}

// Timeline is the picture of the run so far.
func (r *Run) Timeline(ctx context.Context, main *session.Session) timeline.Timeline {
	return r.rec.Timeline(r.rec.Judge(ctx, main))
}

// Draw is the run's picture for the terminal, width columns wide.
func (r *Run) Draw(ctx context.Context, main *session.Session, width int) string {
	return timeline.Draw(r.Out, r.Timeline(ctx, main), width, false)
}

// Injected keeps a fault explore made happen at t for the timeline, in its
// own lane.
func (r *Run) Injected(t time.Time, lane, what, note string) { r.rec.Injected(t, lane, what, note) }

// turnOf is a probed event's turn in the server's order (nil: not
// probed).
func turnOf(ev session.Event) record.Turn {
	if f := probe.FlightOf(ev); f != nil {
		return f
	}
	return nil
}

// Redlock is the Redlock lab of the shell the run belongs to (explore's
// faults act on its nodes).
func (r *Run) Redlock() *redlock.Lab { return statePart.In(r.parts).Redlock() }

// Recorder is the run's record (explore's faults on Redlock's nodes tell
// it what they did).
func (r *Run) Recorder() *record.Recorder { return r.rec }
