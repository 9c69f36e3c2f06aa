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
	Retry             string        `json:"retry"` // the retry policy that ran: fixed, backoff or notify
	Workers           int           `json:"workers"`
	Iterations        int           `json:"iterations"`
	Locks             int           `json:"locks"`                   // the workers share them out; the counts are over all of them
	Acquisitions      int64         `json:"acquisitions"`            // SET NX PX answered OK (fenced: the acquire script answered a token)
	FailedAttempts    int64         `json:"failed_attempts"`         // SET NX PX answered nil: someone held it
	ExpiredWhileHeld  int64         `json:"expired_while_held"`      // at release, the lock was no longer the worker's
	WrongOwnerDeletes int64         `json:"wrong_owner_deletes"`     // break: the plain DEL deleted another worker's lock
	SkippedReleases   int64         `json:"skipped_releases"`        // compare-and-delete found another worker's token and left it
	Overlaps          int64         `json:"overlaps"`                // INCR KEY:inside answered more than 1
	Extensions        int64         `json:"extensions"`              // extend: compare-and-PEXPIRE answered 1
	LostExtensions    int64         `json:"lost_extensions"`         // extend: ... answered 0: the lock was already gone
	Sections          int64         `json:"sections"`                // critical sections entered (= acquisitions)
	WritesAccepted    int64         `json:"writes_accepted"`         // writes of the resource that took (SET ... GET answered; fenced: not refused)
	FencedRejected    int64         `json:"fenced_rejected"`         // fenced: writes refused for a stale token
	LostUpdates       int64         `json:"lost_updates"`            // over the accepted writes: the value each replaced minus the value its holder read
	Resource          int64         `json:"resource"`                // the protected counter's final value, when ResourceRead
	ResourceRead      bool          `json:"-"`                       // the final read answered (JSON: resource is null otherwise)
	Commands          int64         `json:"commands"`                // commands the workers sent, failed attempts included
	Unanswered        int64         `json:"unanswered"`              // round trips with no answer (cut by a stop): they may or may not have run
	UnconfirmedWrites int64         `json:"unconfirmed_writes"`      // writes among them: in none of the counts above, maybe in Resource
	Error             string        `json:"error,omitempty"`         // what stopped the run, or kept it from being judged
	CleanupError      string        `json:"cleanup_error,omitempty"` // the run's keys could not be deleted at the end
	Elapsed           time.Duration `json:"-"`                       // JSON has elapsed_ms
	Interrupted       bool          `json:"interrupted"`
}

// Balance is the left side of the identity the package doc states,
// Resource + FencedRejected + LostUpdates: it equals Acquisitions in
// every run whose round trips were all answered.
func (s Stats) Balance() int64 { return s.Resource + s.FencedRejected + s.LostUpdates }

// balanced says whether the identity holds, or cannot be asked of the
// run (a round trip was cut).
func (s Stats) balanced() bool { return s.Unanswered > 0 || s.Balance() == s.Acquisitions }

// CyclesPerSecond is the rate of critical sections over the run.
func (s Stats) CyclesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Sections) / s.Elapsed.Seconds()
}

// JSON is the stats as one JSON object with snake_case names, plus the
// verdict's outcome and cycles_per_sec; elapsed is in milliseconds, and
// resource is null when the final read failed.
func (s Stats) JSON() string {
	var resource *int64
	if s.ResourceRead {
		resource = &s.Resource
	}
	out := struct {
		Stats
		Resource     *int64  `json:"resource"`
		Verdict      string  `json:"verdict"`
		ElapsedMS    float64 `json:"elapsed_ms"`
		CyclesPerSec float64 `json:"cycles_per_sec"`
	}{Stats: s, Resource: resource, Verdict: s.Outcome().String(),
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
	{"extensions", func(s Stats) int64 { return s.Extensions }, "watchdog PEXPIRE on our lock"},
	{"lost extensions", func(s Stats) int64 { return s.LostExtensions }, "watchdog too late: lock gone"},
	{"writes accepted", func(s Stats) int64 { return s.WritesAccepted }, "GET, then SET of value+1"},
	{"stale writes refused", func(s Stats) int64 { return s.FencedRejected }, "fencing token older than newest"},
	{"lost updates", func(s Stats) int64 { return s.LostUpdates }, "a write replaced updates it never read"},
	{"resource", func(s Stats) int64 { return s.Resource }, "the protected counter, read at the end"},
	{"resource+refused+lost", Stats.Balance, "= acquisitions, every answer in"},
}

// cell is a row's value in s: a number, or ? where the resource is in it
// and the final read failed.
func (r row) cell(s Stats) string {
	if !s.ResourceRead && strings.HasPrefix(r.label, "resource") {
		return "?"
	}
	return thousands(r.value(s))
}

// Table is a summary, one row per stat, then what the mode prevents and
// what it does not, any note, and the verdict on the last line.
func (s Stats) Table() string {
	var b strings.Builder
	b.WriteString(s.heading() + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s %9s   %s\n", r.label, r.cell(s), r.note)
	}
	b.WriteString(lessons([]Stats{s}))
	for _, n := range s.notes() {
		b.WriteString(n + "\n")
	}
	b.WriteString("verdict: " + s.Verdict() + "\n")
	return b.String()
}

// lessons says, in the lesson's words, what each run's mode prevents and
// what it does not: one line per mode, each once, under a heading.
func lessons(runs []Stats) string {
	var b strings.Builder
	heading := "what it prevents, and what it does not:\n"
	if len(runs) > 1 {
		heading = "what each prevents, and what it does not:\n"
	}
	b.WriteString(heading)
	seen := map[string]bool{}
	for _, s := range runs {
		if l, ok := modeLessons[s.Mode]; ok && !seen[s.Mode] {
			seen[s.Mode] = true
			fmt.Fprintf(&b, "  %-7s %s\n", s.Mode, l)
		}
	}
	return b.String()
}

// modeLessons is what each mode prevents, and what it does not, in at
// most 70 columns.
var modeLessons = map[string]string{
	ModeBreak:  "plain DEL prevents nothing: it deletes whoever's lock is there",
	ModeFix:    "prevents deleting another's lock; not overlap when work outlasts TTL",
	ModeExtend: "prevents expiry while working; not a pause longer than the TTL",
	ModeFenced: "prevents stale writes (older tokens); not lost updates in token order",
}

// notes says, in lines of at most 80 columns, what leaves a count
// unknown: round trips a stop cut before their answers, keys left behind.
func (s Stats) notes() []string {
	var n []string
	if s.Unanswered > 0 {
		n = append(n, fmt.Sprintf("note: %s round trip(s) got no answer (a stop, a lost connection), %s with a write:",
			thousands(s.Unanswered), thousands(s.UnconfirmedWrites)),
			"  the server may or may not have run them (a lock, a count, a write left)")
	}
	if s.CleanupError != "" {
		n = append(n, "note: the run's keys could not be deleted: "+s.CleanupError)
	}
	return n
}

func (s Stats) heading() string {
	on := ""
	if s.Locks > 1 {
		on = fmt.Sprintf(" on %d locks", s.Locks)
	}
	h := fmt.Sprintf("load --mode %s --retry %s: %d workers × %d iterations%s, %d sections in %s (%.0f cycles/s)",
		s.Mode, s.Retry, s.Workers, s.Iterations, on, s.Sections, s.Elapsed.Round(time.Millisecond), s.CyclesPerSecond())
	if s.Interrupted {
		h += ", interrupted"
	}
	return h
}

// shared is what Compare's runs have in common, on its first line: the
// retry policy, the workers and their iterations, the locks.
func (s Stats) shared() string {
	on := ""
	if s.Locks > 1 {
		on = fmt.Sprintf(" on %d locks", s.Locks)
	}
	return fmt.Sprintf("load --retry %s: %d workers × %d iterations%s, each mode in turn", s.Retry, s.Workers, s.Iterations, on)
}

// Compare is several runs side by side, one column per run (e.g. the four
// modes), under a line that says what they share, then what each mode
// prevents, and each run's verdict.
func Compare(runs []Stats) string {
	var b strings.Builder
	if len(runs) > 0 {
		b.WriteString(runs[0].shared() + "\n")
	}
	fmt.Fprintf(&b, "  %-22s", "")
	for _, s := range runs {
		fmt.Fprintf(&b, " %9s", s.Mode)
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s", r.label)
		for _, s := range runs {
			fmt.Fprintf(&b, " %9s", r.cell(s))
		}
		b.WriteString("\n")
	}
	b.WriteString(lessons(runs))
	for _, s := range runs {
		fmt.Fprintf(&b, "%s: %s\n", s.Mode, s.Verdict())
		for _, n := range s.notes() {
			fmt.Fprintf(&b, "%s: %s\n", s.Mode, n)
		}
	}
	return b.String()
}

// Outcome is what a verdict concludes.
type Outcome int

const (
	Nothing Outcome = iota // nothing ran
	OK                     // no lock bug in the server's answers
	Fail                   // a lock bug, seen in the server's answers
	Unknown                // the run could not be judged: an error, counts that do not add up
)

func (o Outcome) String() string { return [...]string{"nothing", "ok", "fail", "unknown"}[o] }

// Outcome is the verdict's conclusion.
func (s Stats) Outcome() Outcome {
	o, _ := s.judge()
	return o
}

// Verdict is the run's lesson in one line.
func (s Stats) Verdict() string {
	_, v := s.judge()
	if s.Interrupted {
		v = "interrupted; so far: " + v
	}
	return v
}

// judge is the verdict, once it is sure the run can be judged at all.
func (s Stats) judge() (Outcome, string) {
	switch {
	case s.Error != "":
		return Unknown, "UNKNOWN: " + s.Error
	case !s.ResourceRead:
		return Unknown, "UNKNOWN: the resource was not read."
	case s.Sections == 0:
		return Nothing, "nothing ran."
	case !s.balanced():
		return Unknown, fmt.Sprintf("UNKNOWN: the counts do not add up: resource %s + refused %s + lost %s = %s, not the %s acquisitions: did another client write the resource?",
			thousands(s.Resource), thousands(s.FencedRejected), thousands(s.LostUpdates), thousands(s.Balance()), thousands(s.Acquisitions))
	}
	return s.lesson()
}

// lesson is the verdict of a run that can be judged.
func (s Stats) lesson() (Outcome, string) {
	lost := s.LostUpdates
	lostNote := ""
	if lost != 0 {
		lostNote = fmt.Sprintf(", %s lost updates", thousands(lost))
	}
	switch {
	case s.WrongOwnerDeletes > 0:
		return Fail, fmt.Sprintf("FAIL: %s WRONG-OWNER DEL (a plain DEL removed a successor's lock)%s. Release with Lua compare-and-delete: --mode fix.",
			thousands(s.WrongOwnerDeletes), lostNote)
	case s.Mode == ModeFenced && lost != 0:
		return Fail, fmt.Sprintf("FAIL: fencing refused %s, yet %s lost: a newer token wrote after an older one, from a value read before it. Fencing refuses an older token, not a stale read.",
			plural(s.FencedRejected, "stale write"), plural(lost, "update"))
	case s.Mode == ModeFenced && s.Overlaps > 0:
		return OK, fmt.Sprintf("OK: sections overlapped %s times, but fencing refused %s and no update was lost.",
			thousands(s.Overlaps), plural(s.FencedRejected, "stale write"))
	case s.Mode == ModeExtend && s.Overlaps > 0:
		return Fail, fmt.Sprintf("FAIL: no wrong-owner DEL, but a watchdog came too late to extend its lock (%s lost extensions: its worker was paused, or starved of CPU): %s overlaps%s. Fencing tokens refuse its stale write: --mode fenced.",
			thousands(s.LostExtensions), thousands(s.Overlaps), lostNote)
	case s.Overlaps > 0:
		return Fail, fmt.Sprintf("FAIL: no wrong-owner DEL, but %s overlapping critical sections%s: compare-and-delete only stops deleting another's lock; work that outlasts the TTL needs the lock extended: --mode extend.",
			thousands(s.Overlaps), lostNote)
	case lost != 0:
		return Fail, fmt.Sprintf("FAIL: no overlap seen, yet %s lost.", plural(lost, "update"))
	case s.Mode == ModeExtend && s.Extensions > 0:
		return OK, fmt.Sprintf("OK: the watchdog kept every lock (%s extensions): no wrong-owner DEL, no overlap, no lost update.", thousands(s.Extensions))
	}
	return OK, "OK: no wrong-owner DEL, no overlap, no lost update."
}

// plural is n things: 1 update, 2 updates.
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return thousands(n) + " " + thing + "s"
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
