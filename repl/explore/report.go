package explore

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lang/shellquote"
)

// groupName names a set of bug kinds as the verdict does (DOUBLE
// BOOKING + OVERLAP).
func groupName(kinds []check.Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Headline()
	}
	return strings.Join(names, " + ")
}

// Summary is the search in one line: `explored 6 schedules (complete,
// raw): 4 DOUBLE BOOKING, 2 all clear`.
func (r *Result) Summary() string {
	bound := "complete"
	if !r.Complete {
		bound = r.Bounded
	}
	keys := make([]string, 0, len(r.Groups))
	for k := range r.Groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(clearLast(a), clearLast(b)), cmp.Compare(r.Groups[b], r.Groups[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", r.Groups[k], k)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("explored 0 schedules (%s, %s)", bound, r.Mode) // stopped before one ran
	}
	noun := "schedules"
	if r.Schedules == 1 {
		noun = "schedule"
	}
	return fmt.Sprintf("explored %d %s (%s, %s): %s", r.Schedules, noun, bound, r.Mode, strings.Join(parts, ", "))
}

// Report prints the summary, how many schedules failed the script's own
// checks, and the shortest failing schedule replayed as an ordinary
// annotated transcript (its timeline drawn draw wide, when draw > 0),
// which it returns (nil when none failed).
func (r *Result) Report(ctx context.Context, w io.Writer, sc Script, draw int) (*Schedule, error) {
	fmt.Fprintln(w, r.Summary())
	if r.opts.Oracle {
		fmt.Fprintf(w, "oracle: after each of %d steps, the checker believed what the server held\n", r.Steps)
	}
	r.failures(w)
	s, err := r.Shortest(ctx, sc, draw)
	if err != nil || s == nil {
		return nil, err
	}
	fmt.Fprintf(w, "\nshortest failing schedule: #%d, %d steps, choices %s\n", s.Number, len(s.Steps), joinInts(s.Choices))
	for i, st := range s.Steps {
		fmt.Fprintf(w, "  %d. %s\n", i+1, stepLine(st))
	}
	fmt.Fprintf(w, "\nits run, replayed (%s):\n%s", r.replayCommand(sc, s.Number), s.Transcript)
	return s, nil
}

// Stopped prints what a search that was stopped (by) ran: its counts,
// and the shortest failing schedule so far, by number, with the command
// that shows it (its replay is what the stop skipped).
func (r *Result) Stopped(w io.Writer, sc Script, by string) {
	fmt.Fprintf(w, "%s (%s)\n", r.Summary(), by)
	r.failures(w)
	if o := r.shortest; o != nil {
		fmt.Fprintf(w, "shortest failing schedule so far: #%d, %d steps (%s shows it)\n", o.number, len(o.schedule), r.replayCommand(sc, o.number))
	}
}

// failures says how many schedules failed the script's own checks, and
// how many broke the --property asked for.
func (r *Result) failures(w io.Writer) {
	if r.ExpectFailed > 0 {
		fmt.Fprintf(w, "the script failed (an expectation, or its exit status) in %d of %d schedules\n", r.ExpectFailed, r.Schedules)
	}
	if r.opts.Property != "" {
		fmt.Fprintf(w, "%d of %d schedules break --property %s\n", r.broke, r.Schedules, r.opts.Property)
	}
}

// replayCommand is the command that runs schedule n of this search
// again: -- keeps arguments that read as flags the script's.
func (r *Result) replayCommand(sc Script, n int) string {
	words := []string{sc.Name}
	if slices.ContainsFunc(sc.Args, func(a string) bool { return strings.HasPrefix(a, "-") }) {
		words = append(words, "--")
	}
	return fmt.Sprintf("locklab explore %s--replay %d %s", r.opts.flags(), n, shellquote.Line(append(words, sc.Args...)...))
}

// stepLine is a step as the report and a saved schedule's comments write
// it, on one line: "bob SET lock ... NX PX 2000", and for a poll how
// many times it went for the same answer.
func stepLine(st sched.Step) string {
	line := shellquote.OneLine(shellquote.Word(st.Session) + " " + st.Line)
	if st.Lost {
		line += " " + sched.LostMark
	}
	if st.Repeats > 0 {
		line += fmt.Sprintf("   (a poll: sent %d times for the same answer)", st.Sends())
	}
	return line
}

// clearLast sorts the groups with no bug after the bugs.
func clearLast(group string) int {
	if group == allClear || group == noVerdict || group == stuckGroup {
		return 1
	}
	return 0
}
