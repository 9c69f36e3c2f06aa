package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/locklab/locklab/repl/redistest"
)

func TestParseArgs(t *testing.T) {
	def := DefaultConfig()
	good := []struct {
		args []string
		want Config
		json bool
	}{
		{nil, def, false},
		{[]string{"load"}, def, false},
		{[]string{"--json"}, def, true},
		{strings.Fields("--workers 50 --iterations 3 --mode break --ttl 2s --work 0 --jitter 5 --key lock:x --locks 50 --json"),
			Config{Workers: 50, Iterations: 3, Mode: ModeBreak, TTL: 2 * time.Second, Jitter: 5 * time.Millisecond, Key: "lock:x", Locks: 50}, true},
		{strings.Fields("load --mode=extend --ttl=150 --work=1.5s --pause 600ms --pause-every 2"),
			Config{Workers: 10, Iterations: 20, Mode: ModeExtend, TTL: 150 * time.Millisecond, Work: 1500 * time.Millisecond,
				Pause: 600 * time.Millisecond, PauseEvery: 2, Key: "lock:load", Locks: 1}, false},
		{strings.Fields("--mode fenced --work 0.5"), Config{Workers: 10, Iterations: 20, Mode: ModeFenced, TTL: 200 * time.Millisecond,
			Work: 500 * time.Microsecond, Key: "lock:load", Locks: 1}, false},
	}
	for _, g := range good {
		cfg, asJSON, err := ParseArgs(g.args)
		if err != nil || cfg != g.want || asJSON != g.json {
			t.Errorf("ParseArgs(%q) = %+v, %v, %v; want %+v, %v", g.args, cfg, asJSON, err, g.want, g.json)
		}
	}
	bad := map[string]string{
		"--workers":                  "needs a value",
		"--workers 0":                "at least 1",
		"--workers ten":              "whole number",
		"--workers 10001":            "between 1 and 10000",
		"--iterations -3":            "at least 1",
		"--mode safe":                `not "safe"`,
		"--ttl 0":                    "at least 1ms",
		"--ttl 500us":                "at least 1ms",
		"--work soon":                "duration",
		"--work -5ms":                "negative",
		"--jitter 2h":                "at most 1h",
		"--work 99999999":            "at most 1h",
		"--pause 300ms":              "go together",
		"--pause-every 2":            "go together",
		"--pause-every 0 --pause 1s": "at least 1",
		"--key=":                     "empty",
		"--locks 0":                  "at least 1",
		"--locks 11":                 "between 1 and the 10 workers",
		"--workers 4 --locks=5":      "between 1 and the 4 workers",
		"--json=yes":                 "no value",
		"--workers 2 --workers 3":    "given twice",
		"--verbose":                  "unknown argument",
		"extra":                      "unknown argument",
	}
	for args, want := range bad {
		_, _, err := ParseArgs(strings.Fields(args))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "usage: "+Usage) {
			t.Errorf("ParseArgs(%q) error = %v; want one saying %q, ending with the usage line", args, err, want)
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	dial := func(int) Conn { t.Fatal("a bad config must not dial"); return nil }
	for _, cfg := range []Config{{Workers: -1}, {Mode: "safe"}, {Work: -time.Second}, {TTL: time.Microsecond}, {PauseEvery: -1}, {Workers: 2, Locks: 3}, {Locks: -1}} {
		if _, err := Run(context.Background(), dial, cfg, nil); err == nil {
			t.Errorf("Run(%+v) ran", cfg)
		}
	}
}

func sampleStats() Stats {
	return Stats{Mode: ModeFix, Workers: 10, Iterations: 20, Locks: 1, Acquisitions: 200, FailedAttempts: 123456,
		ExpiredWhileHeld: 190, SkippedReleases: 180, Overlaps: 170, Sections: 200, Resource: 120, Expected: 200,
		Elapsed: 41230 * time.Millisecond}
}

func TestTable(t *testing.T) {
	out := sampleStats().Table()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(rows)+2 {
		t.Fatalf("want a heading, %d rows and a verdict, got:\n%s", len(rows), out)
	}
	if !strings.HasPrefix(lines[0], "load --mode fix: 10 workers × 20 iterations, 200 sections in 41.23s") {
		t.Errorf("heading: %q", lines[0])
	}
	col := -1
	for i, l := range lines[1 : len(lines)-1] {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("row longer than 80 columns: %q", l)
		}
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
	for _, want := range []string{"123,456", fmt.Sprintf("  %-22s %9s   ", "lost updates", "80"), "verdict: FAIL: no wrong-owner DEL, but 170 overlapping"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	cut := sampleStats()
	cut.Interrupted, cut.Unanswered, cut.UnconfirmedWrites = true, 3, 2
	out = cut.Table()
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(rows)+4 || !strings.HasPrefix(lines[len(rows)+1], "note: the stop cut 3 round trip(s) before their answers, 2 with a write:") ||
		!strings.HasPrefix(lines[len(rows)+3], "verdict: interrupted") {
		t.Errorf("want the rows, two lines of note on the 3 round trips cut, then the verdict, got:\n%s", out)
	}
	for _, l := range lines[len(rows)+1 : len(rows)+3] {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("note line longer than 80 columns: %q", l)
		}
	}
	if strings.Contains(sampleStats().Table(), "note:") || strings.Contains(Compare([]Stats{sampleStats()}), "note:") {
		t.Error("a note on cut round trips when none was cut")
	}
	if !strings.Contains(Compare([]Stats{sampleStats(), cut}), "fix: note: the stop cut 3 round trip(s)") {
		t.Error("Compare lacks the note on cut round trips")
	}
	many := sampleStats()
	many.Locks = 5
	if h := strings.SplitN(many.Table(), "\n", 2)[0]; !strings.HasPrefix(h, "load --mode fix: 10 workers × 20 iterations on 5 locks, 200 sections") {
		t.Errorf("heading with 5 locks: %q", h)
	}
	if !strings.Contains(Compare([]Stats{sampleStats(), {Mode: ModeExtend, Sections: 5, Expected: 5, Resource: 5, Extensions: 9}}), "extend: OK: the watchdog kept every lock") {
		t.Error("Compare lacks a run's verdict")
	}
}

func TestVerdicts(t *testing.T) {
	cases := map[string]Stats{
		"WRONG-OWNER DEL":            {Mode: ModeBreak, Sections: 5, WrongOwnerDeletes: 2, Expected: 5, Resource: 3},
		"overlapping critical":       {Mode: ModeFix, Sections: 5, Overlaps: 4, Expected: 5, Resource: 5},
		"paused worker could not":    {Mode: ModeExtend, Sections: 5, Overlaps: 1, LostExtensions: 2, Expected: 5, Resource: 4},
		"fencing refused 3":          {Mode: ModeFenced, Sections: 5, Overlaps: 4, FencedRejected: 3, Expected: 2, Resource: 2},
		"watchdog kept every lock":   {Mode: ModeExtend, Sections: 5, Extensions: 7, Expected: 5, Resource: 5},
		"OK: no wrong-owner DEL":     {Mode: ModeFix, Sections: 5, Expected: 5, Resource: 5},
		"nothing ran":                {Mode: ModeFix},
		"yet the resource is 4":      {Mode: ModeFix, Sections: 5, Expected: 5, Resource: 4},
		"interrupted; so far: OK":    {Mode: ModeFix, Sections: 5, Expected: 5, Resource: 5, Interrupted: true},
		"2 lost updates. Release wi": {Mode: ModeBreak, Sections: 5, WrongOwnerDeletes: 2, Expected: 5, Resource: 3},
		// A write the stop cut may have landed: a resource above the
		// confirmed writes by no more than those is no bug...
		"interrupted; so far: OK: no wrong-owner DEL, no overlap, no lost update.": {Mode: ModeFenced, Sections: 5, Expected: 4,
			UnconfirmedWrites: 1, Unanswered: 1, Resource: 5, Interrupted: true},
		// ...but more than those is.
		"yet the resource is 6, expected 4": {Mode: ModeFenced, Sections: 5, Expected: 4, UnconfirmedWrites: 1, Unanswered: 1,
			Resource: 6, Interrupted: true},
	}
	for want, s := range cases {
		if v := s.Verdict(); !strings.Contains(v, want) {
			t.Errorf("verdict %q lacks %q", v, want)
		}
	}
}

func TestJSON(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(sampleStats().JSON()), &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"acquisitions", "commands", "cycles_per_sec", "elapsed_ms", "expected", "expired_while_held", "extensions",
		"failed_attempts", "fenced_rejected", "interrupted", "iterations", "locks", "lost_extensions", "lost_updates", "mode",
		"overlaps", "resource", "sections", "skipped_releases", "unanswered", "unconfirmed_writes", "workers", "wrong_owner_deletes"}
	if !slices.Equal(keys, want) {
		t.Errorf("JSON keys\n %v\nwant\n %v", keys, want)
	}
	if m["elapsed_ms"] != 41230.0 || m["lost_updates"] != 80.0 || m["failed_attempts"] != 123456.0 || m["cycles_per_sec"] != 4.9 || m["mode"] != "fix" {
		t.Errorf("JSON values: %v", m)
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

// TestKeys: the keys derive from --key, and a run starts from scratch.
func TestKeys(t *testing.T) {
	addr := redistest.Real(t)
	c := dialer(addr)(0)
	defer c.Close()
	ctx := context.Background()
	for _, k := range []string{"lab:resource", "lab:fence", "lab:fence:last", "lab:inside"} {
		c.Do(ctx, []string{"SET", k, "1000"})
	}
	c.Do(ctx, []string{"SET", "lab", "someone-else", "PX", "100"})
	s, err := Run(ctx, dialer(addr), Config{Workers: 2, Iterations: 3, Mode: ModeFenced, TTL: time.Second, Key: "lab"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Resource != 6 || s.Expected != 6 || s.Overlaps != 0 || s.FailedAttempts != 0 && s.ExpiredWhileHeld != 0 {
		t.Errorf("want 6 clean sections from scratch, got\n%s", s.Table())
	}
	for k, want := range map[string]int64{"lab:resource": 6, "lab:fence": 6, "lab:fence:last": 6, "lab:inside": 0} {
		if got, err := readInt(ctx, c, k); err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", k, got, err, want)
		}
	}
}

// TestLocks: with --locks the workers share the locks out, each lock with
// its own keys, and the counts add up over all of them.
func TestLocks(t *testing.T) {
	eachServer(t, func(t *testing.T, addr string) {
		t.Parallel()
		ctx := context.Background()
		c := dialer(addr)(0)
		defer c.Close()
		// One worker per lock: nobody waits, and nobody overlaps
		// although the work outlasts the TTL.
		own := Config{Workers: 3, Iterations: 4, Locks: 3, Mode: ModeFix, TTL: testTTL, Work: testWork, Key: "lab:own"}
		s, err := Run(ctx, dialer(addr), own, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, s, own)
		if s.Locks != 3 || s.FailedAttempts != 0 || s.Overlaps != 0 || s.Resource != 12 || s.ExpiredWhileHeld != 12 {
			t.Errorf("3 workers on 3 locks: want no wait, no overlap, 12 expiries and a resource of 12, got\n%s", s.Table())
		}
		for i := 1; i <= 3; i++ {
			if got, err := readInt(ctx, c, fmt.Sprintf("lab:own:%d:resource", i)); err != nil || got != 4 {
				t.Errorf("lab:own:%d:resource = %d, %v; want 4", i, got, err)
			}
		}
		if got, _ := command(ctx, c, "EXISTS", "lab:own:resource", "lab:own:4:resource"); got.Int != 0 {
			t.Errorf("%d keys outside the 3 locks were written", got.Int)
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
		// A cycle is SET NX, INCR and GET, then SET, DECR and the release.
		if s.Commands != 6*s.Sections+s.FailedAttempts {
			t.Errorf("%d commands; want 6 per section plus one per failed attempt, %d", s.Commands, 6*s.Sections+s.FailedAttempts)
		}
	})
}
