package load

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Stats is what a run counted, all of it from the server's answers.
type Stats struct {
	Mode              string        `json:"mode"`
	Workers           int           `json:"workers"`
	Iterations        int           `json:"iterations"`
	Locks             int           `json:"locks"`               // the workers share them out; the counts are over all of them
	Acquisitions      int64         `json:"acquisitions"`        // SET NX PX answered OK
	FailedAttempts    int64         `json:"failed_attempts"`     // SET NX PX answered nil: someone held it
	ExpiredWhileHeld  int64         `json:"expired_while_held"`  // at release, the lock was no longer the worker's
	WrongOwnerDeletes int64         `json:"wrong_owner_deletes"` // break: the plain DEL deleted another worker's lock
	SkippedReleases   int64         `json:"skipped_releases"`    // compare-and-delete found another worker's token and left it
	Overlaps          int64         `json:"overlaps"`            // INCR KEY:inside answered more than 1
	FencedRejected    int64         `json:"fenced_rejected"`     // fenced: writes refused for a stale token
	Extensions        int64         `json:"extensions"`          // extend: compare-and-PEXPIRE answered 1
	LostExtensions    int64         `json:"lost_extensions"`     // extend: ... answered 0: the lock was already gone
	Sections          int64         `json:"sections"`            // critical sections entered (= acquisitions)
	Resource          int64         `json:"resource"`            // the protected counter's final value...
	Expected          int64         `json:"expected"`            // ...and what it must be (see below)
	Commands          int64         `json:"commands"`            // commands the workers sent, failed attempts included
	Unanswered        int64         `json:"unanswered"`          // round trips with no answer (cut by a stop): they may or may not have run
	UnconfirmedWrites int64         `json:"unconfirmed_writes"`  // writes among them: not in Expected, maybe in Resource
	Elapsed           time.Duration `json:"-"`                   // JSON has elapsed_ms
	Interrupted       bool          `json:"interrupted"`
}

// Expected counts the writes the server confirmed: for break, fix and
// extend one per section (a section ends with a write), for fenced the
// writes the resource accepted. A write whose answer a stop cut counts in
// UnconfirmedWrites instead: so every section is Expected,
// UnconfirmedWrites or (fenced) FencedRejected.

// LostUpdates is how many confirmed writes the resource does not show
// (negative: more increments than writes; a bug unless UnconfirmedWrites,
// writes that may have landed, account for them).
func (s Stats) LostUpdates() int64 { return s.Expected - s.Resource }

// unexplainedLoss is LostUpdates, but 0 where the resource is above the
// confirmed writes by no more than the unconfirmed ones.
func (s Stats) unexplainedLoss() int64 {
	lost := s.LostUpdates()
	if lost < 0 && -lost <= s.UnconfirmedWrites {
		return 0
	}
	return lost
}

// CyclesPerSecond is the rate of critical sections over the run.
func (s Stats) CyclesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Sections) / s.Elapsed.Seconds()
}

// JSON is the stats as one JSON object with snake_case names, plus the
// derived lost_updates and cycles_per_sec; elapsed is in milliseconds.
func (s Stats) JSON() string {
	out := struct {
		Stats
		LostUpdates  int64   `json:"lost_updates"`
		ElapsedMS    float64 `json:"elapsed_ms"`
		CyclesPerSec float64 `json:"cycles_per_sec"`
	}{Stats: s, LostUpdates: s.LostUpdates(),
		ElapsedMS:    float64(s.Elapsed.Microseconds()) / 1000,
		CyclesPerSec: math.Round(s.CyclesPerSecond()*10) / 10}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // plain numbers and strings always marshal
	}
	return string(b)
}

// row is one line of the table: a label, how to read a stats value, and
// what the number means.
type row struct {
	label string
	value func(Stats) int64
	note  string
}

var rows = []row{
	{"acquisitions", func(s Stats) int64 { return s.Acquisitions }, "SET NX PX answered OK"},
	{"failed attempts", func(s Stats) int64 { return s.FailedAttempts }, "the lock was held: retried"},
	{"expired while held", func(s Stats) int64 { return s.ExpiredWhileHeld }, "work outlasted the TTL"},
	{"wrong-owner deletes", func(s Stats) int64 { return s.WrongOwnerDeletes }, "plain DEL of a successor's lock"},
	{"skipped releases", func(s Stats) int64 { return s.SkippedReleases }, "token mismatch: left alone"},
	{"overlapping sections", func(s Stats) int64 { return s.Overlaps }, "two workers inside at once"},
	{"stale writes refused", func(s Stats) int64 { return s.FencedRejected }, "fencing token older than newest"},
	{"extensions", func(s Stats) int64 { return s.Extensions }, "watchdog PEXPIRE on our lock"},
	{"lost extensions", func(s Stats) int64 { return s.LostExtensions }, "watchdog too late: lock gone"},
	{"resource", func(s Stats) int64 { return s.Resource }, "the protected counter"},
	{"expected", func(s Stats) int64 { return s.Expected }, "writes the server confirmed"},
	{"lost updates", func(s Stats) int64 { return s.LostUpdates() }, "expected - resource"},
}

// Table is a summary, one row per stat, and the verdict on the last line.
func (s Stats) Table() string {
	var b strings.Builder
	b.WriteString(s.heading() + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s %9s   %s\n", r.label, thousands(r.value(s)), r.note)
	}
	if n := s.unansweredNote(); n != "" {
		b.WriteString(n + "\n")
	}
	b.WriteString("verdict: " + s.Verdict() + "\n")
	return b.String()
}

// unansweredNote says, in two lines of at most 80 columns, when a stop
// cut round trips before their answers, what that leaves unknown; "" when
// none was cut.
func (s Stats) unansweredNote() string {
	if s.Unanswered == 0 {
		return ""
	}
	return fmt.Sprintf("note: the stop cut %s round trip(s) before their answers, %s with a write:\n"+
		"  the server may or may not have run them (a lock, a count, a write left)",
		thousands(s.Unanswered), thousands(s.UnconfirmedWrites))
}

func (s Stats) heading() string {
	on := ""
	if s.Locks > 1 {
		on = fmt.Sprintf(" on %d locks", s.Locks)
	}
	h := fmt.Sprintf("load --mode %s: %d workers × %d iterations%s, %d sections in %s (%.0f cycles/s)",
		s.Mode, s.Workers, s.Iterations, on, s.Sections, s.Elapsed.Round(time.Millisecond), s.CyclesPerSecond())
	if s.Interrupted {
		h += ", interrupted"
	}
	return h
}

// Compare is several runs side by side, one column per run (e.g. the four
// modes), with each run's verdict below.
func Compare(runs []Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-22s", "")
	for _, s := range runs {
		fmt.Fprintf(&b, " %9s", s.Mode)
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s", r.label)
		for _, s := range runs {
			fmt.Fprintf(&b, " %9s", thousands(r.value(s)))
		}
		b.WriteString("\n")
	}
	for _, s := range runs {
		fmt.Fprintf(&b, "%s: %s\n", s.Mode, s.Verdict())
		if n := s.unansweredNote(); n != "" {
			fmt.Fprintf(&b, "%s: %s\n", s.Mode, n)
		}
	}
	return b.String()
}

// Verdict is the run's lesson in one line.
func (s Stats) Verdict() string {
	v := s.verdict()
	if s.Interrupted {
		v = "interrupted; so far: " + v
	}
	return v
}

func (s Stats) verdict() string {
	lost := s.unexplainedLoss()
	lostNote := ""
	if lost != 0 {
		lostNote = fmt.Sprintf(", %s lost updates", thousands(lost))
	}
	switch {
	case s.Sections == 0:
		return "nothing ran."
	case s.WrongOwnerDeletes > 0:
		return fmt.Sprintf("FAIL: %s WRONG-OWNER DEL (a plain DEL removed a successor's lock)%s. Release with Lua compare-and-delete: --mode fix.",
			thousands(s.WrongOwnerDeletes), lostNote)
	case s.Mode == ModeFenced && s.Overlaps > 0 && lost == 0:
		return fmt.Sprintf("OK: sections overlapped %s times, but fencing refused %s stale writes and the resource is correct.",
			thousands(s.Overlaps), thousands(s.FencedRejected))
	case s.Mode == ModeExtend && s.Overlaps > 0:
		return fmt.Sprintf("FAIL: no wrong-owner DEL, but a paused worker could not extend its lock (%s lost extensions): %s overlaps%s. Only fencing tokens help: --mode fenced.",
			thousands(s.LostExtensions), thousands(s.Overlaps), lostNote)
	case s.Overlaps > 0:
		return fmt.Sprintf("FAIL: no wrong-owner DEL, but %s overlapping critical sections%s: compare-and-delete only stops deleting another's lock; work outlasting the TTL needs extension or fencing tokens.",
			thousands(s.Overlaps), lostNote)
	case lost != 0:
		return fmt.Sprintf("FAIL: no overlap seen, yet the resource is %s, expected %s.", thousands(s.Resource), thousands(s.Expected))
	case s.Mode == ModeExtend && s.Extensions > 0:
		return fmt.Sprintf("OK: the watchdog kept every lock (%s extensions): no wrong-owner DEL, no overlap, no lost update.", thousands(s.Extensions))
	}
	return "OK: no wrong-owner DEL, no overlap, no lost update."
}

// thousands writes n with commas: 12,345.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
