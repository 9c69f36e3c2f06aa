package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/locklab/locklab/repl/cli/redistest"
)

func TestParseArgs(t *testing.T) {
	def := DefaultConfig()
	good := []struct {
		args []string
		want Config
		json bool
	}{
		{nil, def, false},
		{[]string{"--json"}, def, true},
		{strings.Fields("--workers 50 --iterations 3 --mode break --ttl 2s --work 0 --jitter 5ms --key lock:x --locks 50 --json"),
			Config{Workers: 50, Iterations: 3, Mode: ModeBreak, TTL: 2 * time.Second, Jitter: 5 * time.Millisecond, Key: "lock:x", Locks: 50, Retry: RetryNotify}, true},
		{strings.Fields("--mode=extend --ttl=150ms --work=1.5s --pause 600ms --pause-every 2"),
			Config{Workers: 10, Iterations: 20, Mode: ModeExtend, TTL: 150 * time.Millisecond, Work: 1500 * time.Millisecond,
				Pause: 600 * time.Millisecond, PauseEvery: 2, Key: "lock:load", Locks: 1, Retry: RetryNotify}, false},
		{strings.Fields("--mode fenced --work 0.5ms"), Config{Workers: 10, Iterations: 20, Mode: ModeFenced, TTL: 200 * time.Millisecond,
			Work: 500 * time.Microsecond, Key: "lock:load", Locks: 1, Retry: RetryNotify}, false},
		{strings.Fields("--retry fixed"), withRetry(def, RetryFixed), false},
		{strings.Fields("--retry=backoff"), withRetry(def, RetryBackoff), false},
		{strings.Fields("--retry notify"), def, false},
	}
	for _, g := range good {
		call, err := Parse(g.args)
		if err != nil || call.Config != g.want || call.JSON != g.json {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", g.args, call, err, g.want, g.json)
		}
	}
	usage := " (usage: " + Spec.Usage() + ")" // the one hint of every error but a typo's
	bad := map[string]string{
		"--workers":                  "load: --workers needs a whole number, 1 or more, got nothing" + usage,
		"--workers 0":                `load: --workers needs a whole number, 1 or more, got "0"` + usage,
		"--workers ten":              `load: --workers needs a whole number, 1 or more, got "ten"` + usage,
		"--workers 10001":            "load: --workers must be between 1 and 10000, not 10001" + usage,
		"--iterations -3":            `load: --iterations needs a whole number, 1 or more, got "-3"` + usage,
		"--mode safe":                `load: --mode needs one of break, fix, extend, fenced, got "safe"` + usage,
		"--ttl 0":                    `load: --ttl needs a duration of at least 1ms, such as 5s or 300ms, got "0"` + usage,
		"--ttl 500us":                `load: --ttl needs a duration of at least 1ms, such as 5s or 300ms, got "500us"` + usage,
		"--work soon":                `load: --work needs a duration such as 5s or 300ms, got "soon"` + usage,
		"--work -5ms":                `load: --work needs a duration such as 5s or 300ms, got "-5ms"` + usage,
		"--jitter 2h":                "load: --jitter must be at most 1h, not 2h0m0s" + usage,
		"--work 99999999ms":          `load: --work needs a duration such as 5s or 300ms, got "99999999ms"` + usage,
		"--work 300":                 "load: --work 300: 300 needs a unit: 300s or 300ms" + usage,
		"--ttl=150":                  "load: --ttl 150: 150 needs a unit: 150s or 150ms" + usage,
		"--pause 300ms":              "load: --pause and --pause-every go together, e.g. --pause 600ms --pause-every 2" + usage,
		"--pause-every 2":            "load: --pause and --pause-every go together, e.g. --pause 600ms --pause-every 2" + usage,
		"--pause-every 0 --pause 1s": `load: --pause-every needs a whole number, 1 or more, got "0"` + usage,
		"--key=":                     `load: --key needs a value (K), got ""` + usage,
		"--locks 0":                  `load: --locks needs a whole number, 1 or more, got "0"` + usage,
		"--locks 11":                 "load: --locks must be between 1 and the 10 workers (a lock nobody takes shows nothing), not 11" + usage,
		"--workers 4 --locks=5":      "load: --locks must be between 1 and the 4 workers (a lock nobody takes shows nothing), not 5" + usage,
		"--json=yes":                 "load: --json is a switch: give it alone, not --json=yes" + usage,
		"--workers 2 --workers 3":    "load: --workers given twice: give it once" + usage,
		"--verbose":                  "load: unknown flag --verbose" + usage,
		"--retry wait":               `load: --retry needs one of fixed, backoff, notify, got "wait"` + usage,
		"--retry":                    "load: --retry needs one of fixed, backoff, notify, got nothing" + usage,
		"--retyr fixed":              "load: unknown flag --retyr (did you mean --retry?)",
		"--wrkers 3":                 "load: unknown flag --wrkers (did you mean --workers?)",
		"extra":                      `load: unexpected argument "extra"` + usage,
		"--modes fix,safe":           `load: --modes needs modes among break,fix,extend,fenced, got "safe"` + usage,
	}
	for args, want := range bad {
		_, err := Parse(strings.Fields(args))
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error = %v\nwant %s", args, err, want)
		}
	}
}

func withRetry(c Config, policy string) Config {
	c.Retry = policy
	return c
}

func TestRunRejectsBadConfig(t *testing.T) {
	dial := func(int) Conn { t.Fatal("a bad config must not dial"); return nil }
	for _, cfg := range []Config{{Workers: -1}, {Mode: "safe"}, {Retry: "wait"}, {Work: -time.Second}, {TTL: time.Microsecond}, {PauseEvery: -1}, {Workers: 2, Locks: 3}, {Locks: -1}} {
		if _, err := Run(context.Background(), dial, cfg, nil); err == nil {
			t.Errorf("Run(%+v) ran", cfg)
		}
	}
}

func sampleStats() Stats {
	return Stats{Mode: ModeFix, Retry: RetryNotify, Workers: 10, Iterations: 20, Locks: 1, Acquisitions: 200, FailedAttempts: 123456,
		ExpiredWhileHeld: 190, SkippedReleases: 180, Overlaps: 170, Sections: 200, WritesAccepted: 200, LostUpdates: 80,
		Resource: 120, ResourceRead: true, Elapsed: 41230 * time.Millisecond}
}

// tableLines is out's lines; those of the table, the lessons and the
// notes must fit in 80 columns (a verdict may wrap).
func tableLines(t *testing.T, out string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines[1:] {
		if (strings.HasPrefix(l, "  ") || strings.Contains(l, "note: ")) && utf8.RuneCountInString(l) > 80 {
			t.Errorf("a line longer than 80 columns: %q", l)
		}
	}
	return lines
}

func TestTable(t *testing.T) {
	out := sampleStats().Table()
	lines := tableLines(t, out)
	if len(lines) != len(rows)+4 {
		t.Fatalf("want a heading, %d rows, the mode's lesson under its own and a verdict, got:\n%s", len(rows), out)
	}
	if !strings.HasPrefix(lines[0], "load --mode fix --retry notify: 10 workers × 20 iterations, 200 sections in 41.23s") {
		t.Errorf("heading: %q", lines[0])
	}
	col := -1
	for i, l := range lines[1 : len(rows)+1] {
		if !strings.HasPrefix(l, "  "+rows[i].label) {
			t.Errorf("row %d is %q, want %s", i, l, rows[i].label)
		}
		// The numbers are right-aligned: they all end in the same column.
		end := strings.Index(l, "   "+rows[i].note)
		if col == -1 {
			col = end
		} else if end != col {
			t.Errorf("row %q: number ends at %d, others at %d", l, end, col)
		}
	}
	for _, want := range []string{"123,456", fmt.Sprintf("  %-22s %9s   ", "lost updates", "80"),
		fmt.Sprintf("  %-22s %9s   ", "resource+refused+lost", "200"),
		"\n  fix     prevents deleting another's lock; not overlap", "verdict: FAIL: no wrong-owner DEL, but 170 overlapping"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "note:") {
		t.Error("a note on cut round trips when none was cut")
	}
}

// TestTableNotes: cut round trips and keys left behind get a note.
func TestTableNotes(t *testing.T) {
	cut := sampleStats()
	cut.Interrupted, cut.Unanswered, cut.UnconfirmedWrites = true, 3, 2
	cut.CleanupError = "load: DEL: EOF"
	lines := tableLines(t, cut.Table())
	notes := lines[len(rows)+3 : len(lines)-1]
	if len(notes) != 3 || !strings.HasPrefix(notes[0], "note: 3 round trip(s) got no answer (a stop, a lost connection), 2 with a write:") ||
		notes[2] != "note: the run's keys could not be deleted: load: DEL: EOF" || !strings.HasPrefix(lines[len(lines)-1], "verdict: interrupted") {
		t.Errorf("want the rows, the lesson, two lines of note on the 3 round trips cut and one on the keys, then the verdict, got:\n%s", cut.Table())
	}
	if !strings.Contains(Compare([]Stats{sampleStats(), cut}), "fix: note: 3 round trip(s) got no answer") {
		t.Error("Compare lacks the note on cut round trips")
	}
	many := sampleStats()
	many.Locks = 5
	if h := strings.SplitN(many.Table(), "\n", 2)[0]; !strings.HasPrefix(h, "load --mode fix --retry notify: 10 workers × 20 iterations on 5 locks, 200 sections") {
		t.Errorf("heading with 5 locks: %q", h)
	}
}

// TestCompare: the modes side by side under a line that says what they
// share (the retry policy among it), one lesson line per mode under the
// table, then each run's verdict.
func TestCompare(t *testing.T) {
	extend := Stats{Mode: ModeExtend, Acquisitions: 5, Sections: 5, WritesAccepted: 5, Resource: 5, ResourceRead: true, Extensions: 9}
	out := Compare([]Stats{sampleStats(), extend})
	lines := tableLines(t, out)
	want := []string{
		"what each prevents, and what it does not:",
		"  fix     prevents deleting another's lock; not overlap when work outlasts TTL",
		"  extend  prevents expiry while working; not a pause longer than the TTL",
		"fix: FAIL: no wrong-owner DEL, but 170 overlapping",
		"extend: OK: the watchdog kept every lock",
	}
	if len(lines) != len(rows)+7 {
		t.Fatalf("want a line for the runs, a heading, %d rows, 2 lessons under theirs and 2 verdicts, got:\n%s", len(rows), out)
	}
	if lines[0] != "load --retry notify: 10 workers × 20 iterations, each mode in turn" {
		t.Errorf("first line %q", lines[0])
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[len(rows)+2+i], w) {
			t.Errorf("line %d is %q, want %q", len(rows)+2+i, lines[len(rows)+2+i], w)
		}
	}
	if l := lines[len(rows)+1]; l != fmt.Sprintf("  %-22s %9s %9s", "resource+refused+lost", "200", "5") {
		t.Errorf("the identity's row is %q", l)
	}
}

func TestVerdicts(t *testing.T) {
	read := func(s Stats) Stats { s.ResourceRead, s.Sections = true, s.Acquisitions; return s }
	cases := map[string]struct {
		s    Stats
		want Outcome
	}{
		"FAIL: 2 WRONG-OWNER DEL":                   {read(Stats{Mode: ModeBreak, Acquisitions: 5, WrongOwnerDeletes: 2, LostUpdates: 2, Resource: 3}), Fail},
		"2 lost updates. Release wi":                {read(Stats{Mode: ModeBreak, Acquisitions: 5, WrongOwnerDeletes: 2, LostUpdates: 2, Resource: 3}), Fail},
		"overlapping critical":                      {read(Stats{Mode: ModeFix, Acquisitions: 5, Overlaps: 4, Resource: 5}), Fail},
		"watchdog came too late to extend":          {read(Stats{Mode: ModeExtend, Acquisitions: 5, Overlaps: 1, LostExtensions: 2, LostUpdates: 1, Resource: 4}), Fail},
		"refused 3 stale writes and no update":      {read(Stats{Mode: ModeFenced, Acquisitions: 5, Overlaps: 4, FencedRejected: 3, Resource: 2}), OK},
		"refused 1 stale write, yet 2 updates lost": {read(Stats{Mode: ModeFenced, Acquisitions: 5, Overlaps: 4, FencedRejected: 1, LostUpdates: 2, Resource: 2}), Fail},
		"watchdog kept every lock":                  {read(Stats{Mode: ModeExtend, Acquisitions: 5, Extensions: 7, Resource: 5}), OK},
		"OK: no wrong-owner DEL":                    {read(Stats{Mode: ModeFix, Acquisitions: 5, Resource: 5}), OK},
		"nothing ran":                               {read(Stats{Mode: ModeFix}), Nothing},
		"no overlap seen, yet 1 update lost":        {read(Stats{Mode: ModeFix, Acquisitions: 5, LostUpdates: 1, Resource: 4}), Fail},
		"interrupted; so far: OK":                   {read(Stats{Mode: ModeFix, Acquisitions: 5, Resource: 5, Interrupted: true}), OK},
		// A write the stop cut may have landed: the counts need not add up.
		"interrupted; so far: OK: no wrong-owner DEL, no overlap, no lost update.": {read(Stats{Mode: ModeFenced, Acquisitions: 5,
			UnconfirmedWrites: 1, Unanswered: 1, Resource: 4, Interrupted: true}), OK},
		// When every answer came in, they must; else something else wrote.
		"UNKNOWN: the counts do not add up: resource 6 + refused 0 + lost 0 = 6, not the 5 acquisitions": {
			read(Stats{Mode: ModeFix, Acquisitions: 5, Resource: 6}), Unknown},
		// A failed final read is no number, and no verdict.
		"UNKNOWN: the resource could not be read: EOF": {Stats{Mode: ModeFix, Acquisitions: 5, Sections: 5, Resource: 0,
			Error: "the resource could not be read: EOF"}, Unknown},
		"UNKNOWN: the resource was not read.": {Stats{Mode: ModeFix, Acquisitions: 5, Sections: 5}, Unknown},
		"UNKNOWN: w2: GET lock:load:resource": {read(Stats{Mode: ModeBreak, Acquisitions: 5, WrongOwnerDeletes: 2, Resource: 5,
			Error: "w2: GET lock:load:resource: EOF"}), Unknown},
	}
	for want, c := range cases {
		if v := c.s.Verdict(); !strings.Contains(v, want) || c.s.Outcome() != c.want {
			t.Errorf("verdict %q (%v) lacks %q or is not %v", v, c.s.Outcome(), want, c.want)
		}
	}
}

func TestJSON(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(sampleStats().JSON()), &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"acquisitions", "commands", "cycles_per_sec", "elapsed_ms", "expired_while_held", "extensions",
		"failed_attempts", "fenced_rejected", "interrupted", "iterations", "locks", "lost_extensions", "lost_updates", "mode",
		"overlaps", "resource", "retry", "sections", "skipped_releases", "unanswered", "unconfirmed_writes", "verdict", "workers",
		"writes_accepted", "wrong_owner_deletes"}
	if keys := slices.Sorted(maps.Keys(m)); !slices.Equal(keys, want) {
		t.Errorf("JSON keys\n %v\nwant\n %v", keys, want)
	}
	if m["elapsed_ms"] != 41230.0 || m["lost_updates"] != 80.0 || m["resource"] != 120.0 || m["failed_attempts"] != 123456.0 ||
		m["cycles_per_sec"] != 4.9 || m["mode"] != "fix" || m["retry"] != "notify" || m["verdict"] != "fail" {
		t.Errorf("JSON values: %v", m)
	}
	unread := sampleStats()
	unread.ResourceRead, unread.Error = false, "the resource could not be read: EOF"
	if err := json.Unmarshal([]byte(unread.JSON()), &m); err != nil {
		t.Fatal(err)
	}
	if r, ok := m["resource"]; !ok || r != nil || m["verdict"] != "unknown" || m["error"] != unread.Error {
		t.Errorf("a failed final read: resource %v, verdict %v, error %v; want null, unknown and the error", r, m["verdict"], m["error"])
	}
}

// TestProgress: a writer gets a bar, erased at the end; the run is the
// same with or without it.
func TestProgress(t *testing.T) {
	addr := redistest.Embedded(t)
	var buf bytes.Buffer
	cfg := Config{Workers: 3, Iterations: 4, Mode: ModeFix, TTL: time.Second, Work: 30 * time.Millisecond, Key: "lock:progress"}
	s, err := Run(context.Background(), dialer(addr), cfg, &buf)
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "fix · overlaps 0") || !strings.Contains(out, "12/12") || !strings.HasSuffix(out, "\033[2K\r") {
		t.Errorf("progress output %q", out)
	}
	for _, l := range strings.Split(out, "\r") {
		l = strings.NewReplacer("\033[0K", "", "\033[2K", "").Replace(l)
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("a progress line of %d columns: %q", n, l)
		}
	}
	if s.Sections != 12 || s.Resource != 12 {
		t.Errorf("want 12 clean sections, got\n%s", s.Table())
	}
}

// recordKeys dials through watchConn; the map is the keys the workers'
// commands touched (a script's too).
func recordKeys(addr string) (func(int) Conn, map[string]bool) {
	var mu sync.Mutex
	keys := map[string]bool{}
	return watchDialer(addr, func(args []string) {
		mu.Lock()
		defer mu.Unlock()
		for _, k := range commandKeys(args) {
			keys[k] = true
		}
	}), keys
}

// commandKeys is the keys of a command the workers send: its first
// argument, or a script's keys (none for their PING).
func commandKeys(args []string) []string {
	switch {
	case len(args) < 2:
		return nil
	case args[0] == "EVALSHA" || args[0] == "EVAL":
		n, _ := strconv.Atoi(args[2])
		return args[3 : 3+n]
	}
	return args[1:2]
}

// TestKeys: the keys derive from --key, a run starts from scratch (what
// a run killed half-way left is deleted first), and it deletes them at
// the end, and no other key.
func TestKeys(t *testing.T) {
	addr := redistest.Real(t)
	c := dialer(addr)(0)
	defer c.Close()
	ctx := context.Background()
	for _, k := range []string{"lab:resource", "lab:fence", "lab:fence:last", "lab:inside", "lab:other"} {
		c.Do(ctx, []string{"SET", k, "1000"})
	}
	c.Do(ctx, []string{"SET", "lab", "w9-i9", "PX", "1000"}) // a worker's lock, left
	dial, keys := recordKeys(addr)
	s, err := Run(ctx, dial, Config{Workers: 2, Iterations: 3, Mode: ModeFenced, TTL: time.Second, Key: "lab"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Resource != 6 || s.WritesAccepted != 6 || s.Overlaps != 0 || s.FailedAttempts != 0 && s.ExpiredWhileHeld != 0 {
		t.Errorf("want 6 clean sections from scratch, got\n%s", s.Table())
	}
	want := []string{"lab", "lab:fence", "lab:fence:last", "lab:inside", "lab:resource", "lab:waiting"}
	if got := slices.Sorted(maps.Keys(keys)); !slices.Equal(got, want) {
		t.Errorf("the workers used the keys %q, want %q", got, want)
	}
	if n, err := command(ctx, c, append([]string{"EXISTS"}, want...)...); err != nil || n.Int != 0 {
		t.Errorf("%d of the run's keys are left after it (%v)", n.Int, err)
	}
	if got, err := readInt(ctx, c, "lab:other"); err != nil || got != 1000 {
		t.Errorf("lab:other = %d, %v; want it left alone, 1000", got, err)
	}
}

// TestLocks: with --locks the workers share the locks out, each lock with
// its own keys, and the counts add up over all of them.
func TestLocks(t *testing.T) {
	eachServer(t, func(t *testing.T, r redis) {
		t.Parallel()
		addr := r.addr
		ctx := context.Background()
		// One worker per lock: nobody waits, and nobody overlaps
		// although the work outlasts the TTL.
		own := Config{Workers: 3, Iterations: 4, Locks: 3, Mode: ModeFix, TTL: testTTL, Work: testWork, Key: "lab:own"}
		dial, keys := recordKeys(addr)
		s, err := Run(ctx, dial, own, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, s, own)
		if s.Locks != 3 || s.FailedAttempts != 0 || s.Overlaps != 0 || s.Resource != 12 || s.ExpiredWhileHeld != 12 {
			t.Errorf("3 workers on 3 locks: want no wait, no overlap, 12 expiries and a resource of 12, got\n%s", s.Table())
		}
		var resources []string
		for k := range keys {
			if strings.HasSuffix(k, ":resource") {
				resources = append(resources, k)
			}
		}
		if slices.Sort(resources); !slices.Equal(resources, []string{"lab:own:1:resource", "lab:own:2:resource", "lab:own:3:resource"}) {
			t.Errorf("the workers wrote %q", resources)
		}
		// Three workers on each of two locks: the lesson's bug, per lock.
		shared := Config{Workers: 6, Iterations: 4, Locks: 2, Mode: ModeBreak, TTL: testTTL, Work: testWork, Key: "lab:shared"}
		if s, err = Run(ctx, dialer(addr), shared, nil); err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, s, shared)
		if s.WrongOwnerDeletes == 0 || s.Sections != 24 {
			t.Errorf("6 workers on 2 locks in break mode: want wrong-owner deletes in 24 sections, got\n%s", s.Table())
		}
		// A cycle is SET NX, INCR and GET, then SET, DECR and the release;
		// a failed attempt is followed by another SET NX and, with --retry
		// notify (the default), the SET of the waiting mark and a PTTL
		// before it.
		if s.Commands != 6*s.Sections+3*s.FailedAttempts {
			t.Errorf("%d commands; want 6 per section plus three per failed attempt, %d", s.Commands, 6*s.Sections+3*s.FailedAttempts)
		}
	})
}
