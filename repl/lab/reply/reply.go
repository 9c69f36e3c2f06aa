package reply

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/words"
)

// slowCommand is when redis-cli starts printing how long a command took.
const slowCommand = 500 * time.Millisecond

// Quiet is an output mode for replies that are not printed (a macro's).
const Quiet = words.Quiet

// notePrefix starts every annotation line, so that notes never read as
// replies.
const notePrefix = "   ↳ "

// Printer takes replies from the server to the terminal.
type Printer struct {
	Out         *output.Output
	Rec         *record.Recorder
	TTY         bool // stdout is a terminal
	Interactive bool // a person is typing: slow commands print their time
	Notes       bool // print notes and verdicts
	Trace       bool // record events for the timeline even without notes
}

// Deliver is what every reply goes through, however it was sent: it is
// remembered (expect reply), printed as redis-cli would in mode (with the
// timing of a slow command at the prompt), and annotated.
func (p *Printer) Deliver(stderr, w io.Writer, ev session.Event, mode cliflags.Output, exitOnError bool) {
	if mode != Quiet {
		p.Rec.Printed(ev.Session, ev.Reply)
		tty := p.TTYFor(w, mode)
		if exitOnError && ev.Reply.IsError() {
			fmt.Fprintln(stderr, ev.Reply.Str) // redis-cli -e prints the bare error on stderr
		} else {
			io.WriteString(w, resp.Format(ev.Args, ev.Reply, tty))
		}
		if took := ev.End.Sub(ev.Start); tty && p.Interactive && took >= slowCommand {
			fmt.Fprintf(w, "(%.2fs)\n", took.Seconds())
		}
	}
	p.annotate(w, ev)
}

// Status is the exit status of a command that got reply: as with
// redis-cli, a Redis error is data and gives 0, unless fail (-e) is set,
// then 1. A wrong-arity error also prints the command's syntax, as a hint.
func (p *Printer) Status(stderr io.Writer, args []string, reply resp.Reply, fail bool) error {
	if !reply.IsError() {
		return nil
	}
	p.Rec.RedisError()
	if strings.Contains(reply.Str, "wrong number of arguments") {
		if cmd, _ := commands.Lookup(args); cmd != nil {
			fmt.Fprintf(stderr, "usage: %s\n", cmd.Syntax())
		}
	}
	if fail {
		return interp.ExitStatus(1)
	}
	return nil
}

// TTYFor says whether replies written to w use the TTY format: --no-raw
// and --raw decide, else only the terminal itself gets it (so $(GET k)
// captures "v", not "\"v\"", as with redis-cli).
func (p *Printer) TTYFor(w io.Writer, mode cliflags.Output) bool {
	switch mode {
	case cliflags.OutputTTY:
		return true
	case cliflags.OutputRaw:
		return false
	}
	lw, ok := w.(*output.LineWriter)
	return p.TTY && ok && !lw.Stderr()
}

// annotate feeds an event to the recorder and prints its notes on the
// lab's own output (never into a $(...) capture or a redirection, whose
// reader expects redis-cli's bytes only). A probed event waits there for
// its turn in the server's order (see record.Recorder.Observe); its reply
// is printed already.
func (p *Printer) annotate(w io.Writer, e session.Event) {
	if !p.Notes && !p.Trace {
		return // locklab as redis-cli (piped input, one command): nothing to keep
	}
	var turn record.Turn
	if f := probe.FlightOf(e); f != nil {
		turn = f
	}
	p.Rec.Observe(e, probe.CheckEvent(e), turn, func(notes []check.Note) {
		if !p.Notes {
			return
		}
		if lw, ok := w.(*output.LineWriter); !ok || lw.Stderr() {
			w, _ = p.Out.Writers(e.Session) // captured or redirected: the notes go to the session's lines
		}
		who := ""
		if e.Session != session.Main && !p.Out.Gutters() {
			who = check.Say("%s: ", e.Session) // no gutter says whose note it is
		}
		for _, n := range notes {
			fmt.Fprintln(w, p.Out.Note(n.Level, notePrefix+who+n.Text))
		}
	})
}

// Verdict prints findings, the verdict on a run, to w.
func (p *Printer) Verdict(w io.Writer, findings []check.Finding) {
	if !p.Notes {
		return
	}
	for _, f := range findings {
		fmt.Fprintln(w, p.Out.Note(f.Level(), "verdict: "+f.Text))
	}
}

// Part is the printer in each shell: the shell gives its own, and the
// lab's words print verdicts through it.
var Part = words.NewPart(func() *Printer { return &Printer{Rec: record.New()} })

// Judge prints the verdict on the run so far to w, if notes are on, and
// returns it; the run remembers it as the one it showed.
func (p *Printer) Judge(ctx context.Context, w io.Writer, main *session.Session) []check.Finding {
	if !p.Notes {
		return nil
	}
	findings := p.Rec.Judge(ctx, main)
	p.Verdict(w, findings)
	if n := p.Rec.Dropped(); n > 0 && len(findings) > 0 {
		fmt.Fprintln(w, p.Out.Note(check.Info, fmt.Sprintf("verdict: (on every command; the timeline keeps only the last %d, the first %d are not drawn)", record.MaxEvents, n)))
	}
	p.Rec.Showed(findings)
	return findings
}
