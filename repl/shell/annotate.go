package shell

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/fatih/color"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/probe"
	"github.com/locklab/locklab/repl/resp"
	"github.com/locklab/locklab/repl/session"
)

// notePrefix starts every annotation line, so that notes never read as
// replies.
const notePrefix = "   ↳ "

var noteAttrs = map[check.Level][]color.Attribute{
	check.Info: {color.FgCyan},
	check.Good: {color.FgGreen},
	check.Bad:  {color.FgRed, color.Bold},
}

// paint returns a colour for attrs, on or off as this shell's output
// wants (per object: fatih/color's global switch only looks at os.Stdout).
func paint(on bool, attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if on {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return c
}

func (s *Shell) note(level check.Level, text string) string {
	return paint(s.cfg.Color, noteAttrs[level]...).Sprint(text)
}

// annotate feeds an event to the annotator and prints its notes on the
// lab's own output (never into a $(...) capture or a redirection, whose
// reader expects redis-cli's bytes only).
func (s *Shell) annotate(w io.Writer, e session.Event) {
	if !s.cfg.Notes && !s.cfg.Trace {
		return // locklab as redis-cli (piped input, one command): nothing to keep
	}
	s.annMu.Lock()
	notes := s.ann.Observe(probe.CheckEvent(e))
	s.record(e, notes)
	s.annMu.Unlock()
	if !s.cfg.Notes {
		return
	}
	if lw, ok := w.(*lineWriter); !ok || lw.stderr {
		w, _ = s.writers.get(e.Session) // captured or redirected: the notes go to the session's lines
	}
	for _, n := range notes {
		fmt.Fprintln(w, s.note(n.Level, notePrefix+n.Text))
	}
}

// sending tells the annotator a command is about to be sent.
func (s *Shell) sending(name string, args []string) {
	s.annMu.Lock()
	defer s.annMu.Unlock()
	s.ann.Sending(name, args)
}

// Verdict prints the end-of-run verdict, if the run did anything with
// locks or slots: each slot judged by its length as the server reports it
// now, then the lock findings. It returns the findings.
func (s *Shell) Verdict(ctx context.Context) []check.Finding {
	if !s.cfg.Notes {
		return nil
	}
	findings := s.findings(ctx)
	for _, f := range findings {
		level := check.Good
		if f.Bad() {
			level = check.Bad
		}
		fmt.Fprintln(s.out, s.note(level, "verdict: "+f.Text))
	}
	return findings
}

// findings is the verdict as it stands.
func (s *Shell) findings(ctx context.Context) []check.Finding {
	s.annMu.Lock()
	slots := s.ann.Slots()
	s.annMu.Unlock()
	lengths := s.slotLengths(ctx, slots)
	s.annMu.Lock()
	defer s.annMu.Unlock()
	return s.ann.Verdict(lengths)
}

// findingKinds is the kinds of finding in the verdict as it stands.
func (s *Shell) findingKinds(ctx context.Context) []check.Kind {
	var kinds []check.Kind
	for _, f := range s.findings(ctx) {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	return kinds
}

// slotLengths asks the server, on a connection of its own (no event is
// recorded), how many bookings each slot holds now.
func (s *Shell) slotLengths(ctx context.Context, slots []string) map[string]int64 {
	out := map[string]int64{}
	if len(slots) == 0 {
		return out
	}
	conn := s.cfg.Sessions.Get(session.Main).Untraced()
	defer conn.Close()
	for _, k := range slots {
		r, err := conn.Do(ctx, []string{"LLEN", k})
		if err != nil || r.Kind != resp.Int {
			out[k] = -1 // unknown: the verdict says so rather than guess 0
			continue
		}
		out[k] = r.Int
	}
	return out
}

// resetAnnotator starts a new run: fresh lock and slot history, times
// measured from now.
func (s *Shell) resetAnnotator() {
	s.annMu.Lock()
	defer s.annMu.Unlock()
	s.start = time.Now()
	s.ann = check.New(s.start)
	s.events, s.notes = nil, nil
	s.mu.Lock()
	s.expects, s.failed = 0, 0
	s.mu.Unlock()
}
