package timeline

// Golden tests for the three renderers, on three runs written by hand the
// way the shell records them (events, the annotator's notes under each
// reply, the lock holdings and the verdict; see repl/lab/check/testdata for
// the same runs as the annotator sees them), with fixed times:
//
//	blind-unlock     the lesson's slow client as two sessions: slow's lock
//	                 expires mid-work, fast acquires, slow's plain DEL
//	                 removes fast's lock
//	double-booking   alice and bob check-then-book one seat, no lock
//	six-sessions     main and five workers on lock:inventory (token-checked
//	                 release) and lock:report: a release, a lock that
//	                 expires mid-work, a lock still held at the end, text
//	                 Mermaid and XML must escape, a long command
//
// Each run is drawn by Terminal at 80 and 120 columns, Compact at 80,
// Mermaid and SVG, into testdata/NAME.{term80,term120,compact}.golden,
// NAME.mmd and NAME.svg, which must match:
//
//	go test ./repl/lab/timeline/ -run TestGolden           # compare
//	go test ./repl/lab/timeline/ -run TestGolden -update   # rewrite them
//
// Never bless a golden with -update without reading it (open the .svg in
// a browser, paste the .mmd into mermaid.live).
//
// Then the outputs are checked by real readers: TestMermaidParses runs
// Mermaid's own parser under Node on the .mmd goldens (testdata/mermaid-check),
// TestSVGRendersInChromium draws the .svg goldens in headless Chromium.
// Both skip when the tool is missing, except in CI (CI=true), where they
// fail; each is shown a broken input too, which it must reject.

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/golden"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/lab/check"
)

var update = flag.Bool("update", false, "rewrite testdata's goldens from the renderers' output (read them before committing)")

// runStart is the fixed start of every run.
var runStart = time.Date(2025, time.March, 14, 14, 0, 0, 0, time.UTC)

// at is runStart plus secs seconds.
func at(secs float64) time.Time {
	return runStart.Add(time.Duration(secs*1e6+0.5) * time.Microsecond)
}

// ev is a command sent at start and answered at end; reply "" is nil.
func ev(start, end float64, session, reply string, args ...string) Event {
	return Event{Session: session, Args: args, Reply: reply, Start: at(start), End: at(end)}
}

// note is a note printed under the reply that came back at secs.
func note(secs float64, session string, l check.Level, text string) TimedNote {
	return TimedNote{Note: check.Note{Session: session, Level: l, Text: text}, At: at(secs)}
}

func hold(key, session, token string, from, until float64, end check.End, deletedBy string) check.Holding {
	return check.Holding{Key: key, Session: session, Token: token, From: at(from), Until: at(until), End: end, DeletedBy: deletedBy}
}

// blindUnlock is scripts/blind-unlock.lab's run (repl/lab/check/testdata/
// blind-unlock.events): the notes and verdict are the annotator's.
func blindUnlock() Timeline {
	events := []Event{
		ev(0.000, 0.001, "main", "0", "DEL", "lock:demo"),
		ev(0.002, 0.003, "slow", "OK", "SET", "lock:demo", "slow-client-token", "PX", "500", "NX"),
		ev(1.004, 1.005, "fast", "OK", "SET", "lock:demo", "fast-client-token", "PX", "5000", "NX"),
		ev(1.006, 1.007, "slow", "1", "DEL", "lock:demo"),
		ev(1.008, 1.009, "main", "", "GET", "lock:demo"),
	}
	notes := []TimedNote{
		note(0.003, "slow", check.Good, "lock acquired: slow holds lock:demo for 0.50s"),
		note(1.005, "slow", check.Bad, "slow's lock on lock:demo expired at +0.503s while slow was still working: slow no longer holds it"),
		note(1.005, "fast", check.Good, "lock acquired: fast holds lock:demo for 5.00s"),
		note(1.007, "slow", check.Bad, "OVERLAP: slow and fast both believed they held lock:demo from +1.005s to +1.006s"),
		note(1.007, "slow", check.Bad, "WRONG-OWNER DEL: slow removed fast's lock (fast-client-token) on lock:demo, which had 5.00s left (slow's own lock expired at +0.503s)"),
	}
	holdings := []check.Holding{
		hold("lock:demo", "slow", "slow-client-token", 0.003, 0.503, check.Expired, ""),
		hold("lock:demo", "fast", "fast-client-token", 1.005, 1.006, check.Deleted, "slow"),
	}
	verdict := []check.Finding{
		{Kind: check.WrongOwnerDel, Key: "lock:demo", Text: "WRONG-OWNER DEL on lock:demo: 1 delete(s) removed a lock another session held"},
		{Kind: check.Overlap, Key: "lock:demo", Text: "OVERLAP on lock:demo: 1 time(s) two sessions were inside the critical section at once"},
		{Kind: check.ExpiredWhileWorking, Key: "lock:demo", Text: "EXPIRED WHILE WORKING on lock:demo: 1 lock(s) ran out before their holder finished (the work, or a pause, outlasted the TTL)"},
	}
	return Build(runStart, events, notes, holdings, verdict)
}

// doubleBooking is scripts/double-booking.lab's run (repl/lab/check/testdata/
// double-booking.events): no lock, so no lock column.
func doubleBooking() Timeline {
	events := []Event{
		ev(0.000, 0.001, "main", "0", "DEL", "room:2pm:bookings"),
		ev(0.010, 0.011, "alice", "0", "LLEN", "room:2pm:bookings"),
		ev(0.010, 0.011, "bob", "0", "LLEN", "room:2pm:bookings"),
		ev(0.311, 0.312, "alice", "1", "RPUSH", "room:2pm:bookings", "alice"),
		ev(0.311, 0.312, "bob", "2", "RPUSH", "room:2pm:bookings", "bob"),
		ev(0.313, 0.314, "main", "alice bob", "LRANGE", "room:2pm:bookings", "0", "-1"),
	}
	notes := []TimedNote{
		note(0.312, "bob", check.Bad, "room:2pm:bookings now holds 2 bookings for 1 seat(s): bob saw count=0 before booking"),
	}
	verdict := []check.Finding{
		{Kind: check.DoubleBooking, Key: "room:2pm:bookings", Text: "DOUBLE BOOKING: room:2pm:bookings held 2 bookings (alice, bob) for 1 seat(s): each bidder checked the count, saw room, and booked; nothing stopped a second bidder between its check and its booking"},
	}
	return Build(runStart, events, notes, nil, verdict)
}

// releaseScript is the locks lab's compare-and-delete.
const releaseScript = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"

const releaseSHA = "d02e481a9c91ceec59c5822a58a49d5d5d7ac80b"

// sixSessions is main and five workers: too many lanes for swimlanes at
// 80 (or 120) columns, so Terminal draws it Compact. w1 takes
// lock:inventory and releases it with the script; w2 takes it, works too
// long, and its lock expires; w3 takes it and still holds it when the run
// ends; w2's release finds w3's token and keeps it. w4 holds lock:report
// and releases it; w5 writes a value full of what Mermaid and XML read as
// syntax.
func sixSessions() Timeline {
	events := []Event{
		ev(0.000, 0.001, "main", "0", "DEL", "lock:inventory", "lock:report"),
		ev(0.002, 0.003, "main", releaseSHA, "SCRIPT", "LOAD", releaseScript),
		ev(0.004, 0.005, "w1", "OK", "SET", "lock:inventory", "w1-token", "NX", "PX", "200"),
		ev(0.004, 0.006, "w2", "", "SET", "lock:inventory", "w2-token", "NX", "PX", "200"),
		ev(0.005, 0.006, "w3", "", "SET", "lock:inventory", "w3-token", "NX", "PX", "200"),
		ev(0.006, 0.007, "w4", "OK", "SET", "lock:report", "w4-token", "NX", "PX", "1000"),
		ev(0.050, 0.051, "w5", "OK", "SET", "note:w5", `a;b #c <d> & 'e' "f" %%{init}%%`),
		ev(0.105, 0.106, "w1", "1", "RPUSH", "inventory:orders", "w1"),
		ev(0.106, 0.107, "w1", "1", "EVALSHA", releaseSHA, "1", "lock:inventory", "w1-token"),
		ev(0.110, 0.111, "w2", "OK", "SET", "lock:inventory", "w2-token", "NX", "PX", "200"),
		ev(0.120, 0.121, "w3", "", "SET", "lock:inventory", "w3-token", "NX", "PX", "200"),
		ev(0.150, 0.151, "w4", "1", "DEL", "lock:report"),
		ev(0.320, 0.321, "w3", "OK", "SET", "lock:inventory", "w3-token", "NX", "PX", "200"),
		ev(0.411, 0.412, "w2", "2", "RPUSH", "inventory:orders", "w2"),
		ev(0.412, 0.413, "w2", "0", "EVALSHA", releaseSHA, "1", "lock:inventory", "w2-token"),
		ev(0.430, 0.431, "w5", "w3-token", "GET", "lock:inventory"),
	}
	notes := []TimedNote{
		note(0.005, "w1", check.Good, "lock acquired: w1 holds lock:inventory for 0.20s"),
		note(0.006, "w2", check.Info, "lock not acquired: held by w1 (w1-token), 0.20s left"),
		note(0.006, "w3", check.Info, "lock not acquired: held by w1 (w1-token), 0.20s left"),
		note(0.007, "w4", check.Good, "lock acquired: w4 holds lock:report for 1.00s"),
		note(0.107, "w1", check.Good, "released: w1 deleted its own lock on lock:inventory"),
		note(0.111, "w2", check.Good, "lock acquired: w2 holds lock:inventory for 0.20s"),
		note(0.121, "w3", check.Info, "lock not acquired: held by w2 (w2-token), 0.19s left"),
		note(0.151, "w4", check.Good, "released: w4 deleted its own lock on lock:report"),
		note(0.321, "w2", check.Bad, "w2's lock on lock:inventory expired at +0.311s while w2 was still working: w2 no longer holds it"),
		note(0.321, "w3", check.Good, "lock acquired: w3 holds lock:inventory for 0.20s"),
		note(0.413, "w2", check.Bad, "OVERLAP: w2 and w3 both believed they held lock:inventory from +0.321s to +0.412s"),
		note(0.413, "w2", check.Good, "safe: token mismatch (w2-token is not w3-token), w3's lock (w3-token) kept"),
	}
	holdings := []check.Holding{
		hold("lock:inventory", "w1", "w1-token", 0.005, 0.106, check.Released, ""),
		hold("lock:report", "w4", "w4-token", 0.007, 0.150, check.Released, ""),
		hold("lock:inventory", "w2", "w2-token", 0.111, 0.311, check.Expired, ""),
		hold("lock:inventory", "w3", "w3-token", 0.321, 0.500, check.Held, ""),
	}
	verdict := []check.Finding{
		{Kind: check.Overlap, Key: "lock:inventory", Text: "OVERLAP on lock:inventory: 1 time(s) two sessions were inside the critical section at once"},
		{Kind: check.ExpiredWhileWorking, Key: "lock:inventory", Text: "EXPIRED WHILE WORKING on lock:inventory: 1 lock(s) ran out before their holder finished (the work, or a pause, outlasted the TTL)"},
	}
	return Build(runStart, events, notes, holdings, verdict)
}

var runs = []struct {
	name  string
	build func() Timeline
}{
	{"blind-unlock", blindUnlock},
	{"double-booking", doubleBooking},
	{"six-sessions", sixSessions},
	{"redlock-clock-jump", redlockClockJump},
}

// renderings are the goldens of a run: file suffix and renderer.
var renderings = []struct {
	suffix string
	render func(Timeline) string
}{
	{".term80.golden", func(t Timeline) string { return Terminal(t, 80, Style{}) }},
	{".term120.golden", func(t Timeline) string { return Terminal(t, 120, Style{}) }},
	{".compact.golden", func(t Timeline) string { return Compact(t, 80, Style{}) }},
	{".mmd", Mermaid},
	{".svg", SVG},
}

func TestGolden(t *testing.T) {
	for _, run := range runs {
		tl := run.build()
		for _, r := range renderings {
			file := filepath.Join("testdata", run.name+r.suffix)
			t.Run(run.name+r.suffix, func(t *testing.T) {
				got := r.render(tl)
				if *update {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run with -update to create it, then read it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the renderer's output:\n%s", file, golden.Diff(string(want), got))
				}
			})
		}
	}
}

// TestTerminalWidths: at 80 columns the two- and three-session runs are
// swimlanes no wider than 80; six sessions fall back to Compact.
func TestTerminalWidths(t *testing.T) {
	for _, run := range runs {
		tl := run.build()
		for _, width := range []int{80, 120} {
			out := Terminal(tl, width, Style{})
			for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if n := len([]rune(line)); n > width {
					t.Errorf("%s at %d: line %d is %d wide: %q", run.name, width, i+1, n, line)
				}
			}
			compact := out == Compact(tl, width, Style{})
			// Five node columns leave room for three lanes at 120 columns.
			if want := len(tl.Lanes) > 4 || (len(tl.Nodes) > 0 && width < 120); compact != want {
				t.Errorf("%s at %d: compact %v, want %v", run.name, width, compact, want)
			}
		}
	}
}

// nasty is a run whose every name and text holds what Mermaid's sequence
// grammar or XML reads as syntax, and control characters and invalid
// UTF-8 that neither may carry.
func nasty() Timeline {
	lanes := []string{"a;b", "x#y", `<c>&"d"`, "end", "%%{init: {}}%%", "x as y:z", "wrap:me"}
	var events []Event
	var notes []TimedNote
	for i, l := range lanes {
		s := float64(i) / 10
		events = append(events, ev(s, s+0.001, l, "a;b#c<br/>d&amp;\x01", "SET", "k;"+l, "#59; <br/> & %%{x}%% -->> \n\t\xff end", "NX"))
		notes = append(notes, note(s+0.001, l, check.Level(i%3), "note; #35 <b>bold</b> & %% comment\nsecond line"))
	}
	holdings := []check.Holding{hold("lock:<&>", lanes[0], "t;#", 0.001, 0.15, check.Expired, "")}
	verdict := []check.Finding{{Kind: check.AllClear, Text: "all clear; #1 <ok> & %%"}}
	return Build(runStart, events, notes, holdings, verdict)
}

// TestHostileValuesShowQuoted: a run whose sessions, key, token and
// replies hold control characters (a token that would retitle the window,
// a name that would clear the screen, a reply that would print a forged
// verdict line) draws them quoted, as redis-cli quotes a value, in every
// renderer; one session is still one lane, and its bar is in its column.
func TestHostileValuesShowQuoted(t *testing.T) {
	const (
		key   = "lock:\x1b[2J"
		slow  = "slow\x1b]0;pwned\a"
		fast  = "fast\r"
		token = "tok\x1b]0;pwned\a\r\nverdict: ALL CLEAR"
	)
	events := []Event{
		ev(0.000, 0.001, slow, "OK", "SET", key, token, "NX", "PX", "500"),
		ev(0.600, 0.601, fast, token+"\x7f", "GET", key),
	}
	notes := []TimedNote{note(0.001, slow, check.Good, check.Say("lock acquired: %s holds %s", slow, key))}
	holdings := []check.Holding{hold(key, slow, token, 0.001, 0.501, check.Expired, "")}
	verdict := []check.Finding{{Kind: check.ExpiredWhileWorking, Key: key, Text: check.Say("EXPIRED WHILE WORKING on %s", key)}}
	tl := Build(runStart, events, notes, holdings, verdict)
	if want := []string{`"slow\x1b]0;pwned\a"`, `"fast\r"`}; !slices.Equal(tl.Lanes, want) {
		t.Errorf("lanes %q, want %q", tl.Lanes, want)
	}
	outputs := map[string]string{"terminal": Terminal(tl, 120, Style{}), "compact": Compact(tl, 400, Style{}), "mermaid": Mermaid(tl), "svg": SVG(tl)}
	for name, out := range outputs {
		if i := strings.IndexFunc(out, func(r rune) bool { return (r < 0x20 && r != '\n') || r == 0x7f }); i >= 0 {
			t.Errorf("%s: a control character (%q) at %d:\n%s", name, out[i], i, out)
		}
		if regexp.MustCompile(`(?m)^verdict: ALL CLEAR`).MatchString(out) {
			t.Errorf("%s: a forged verdict line:\n%s", name, out)
		}
	}
	for _, want := range []string{
		`SET "lock:\x1b[2J" "tok\x1b]0;pwned\a\r\nverdict: ALL CLEAR" NX PX 500 → OK`,
		`GET "lock:\x1b[2J" → "tok\x1b]0;pwned\a\r\nverdict: ALL CLEAR\x7f"`,
		`↳ lock acquired: "slow\x1b]0;pwned\a" holds "lock:\x1b[2J"`,
		`✕ "lock:\x1b[2J" expired: "slow\x1b]0;pwned\a"'s TTL ran out`,
	} {
		if !strings.Contains(outputs["compact"], want) {
			t.Errorf("compact lacks %s:\n%s", want, outputs["compact"])
		}
	}
	if want := `│ ┏ "slow\x1b]`; !strings.Contains(outputs["terminal"], want) { // the lock's column is narrow
		t.Errorf("terminal lacks %s:\n%s", want, outputs["terminal"])
	}
	if want := `(&quot;tok\x1b]0;pwned\a\r\nverdict: ALL CLEAR&quot;)`; !strings.Contains(outputs["svg"], want) {
		t.Errorf("svg lacks the token, quoted and XML-escaped, %s:\n%s", want, outputs["svg"])
	}
}

// mermaidLine is what a line of Mermaid's output may be.
var mermaidLine = regexp.MustCompile(`^(sequenceDiagram|    participant (P\d+|R) as ` + mermaidSafe + `|    (P\d+->>R|R-->>P\d+|Note over (P\d+|R)(,(P\d+|R))?): ` + mermaidSafe + `)$`)

// mermaidSafe is text with nothing Mermaid reads as syntax but entity
// codes and <br/>.
const mermaidSafe = `[^;#<>&%\n]*(?:(?:#\d+;|<br/>)[^;#<>&%\n]*)*`

// TestMermaidText: each line is a participant, a message or a note, with
// nothing Mermaid reads as syntax in its text but entity codes and the
// <br/> in notes; messages are cut short.
func TestMermaidText(t *testing.T) {
	for _, tl := range []Timeline{blindUnlock(), doubleBooking(), sixSessions(), nasty(), {}} {
		out := Mermaid(tl)
		for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !mermaidLine.MatchString(line) {
				t.Errorf("line %d: %q", i+1, line)
			}
			if n := len([]rune(unescapeMermaid(line))); !strings.Contains(line, "Note") && n > 100 {
				t.Errorf("line %d is %d runes: %q", i+1, n, line)
			}
		}
	}
	if got, want := mermaidText("a;b#c<d>&e%%{f}\n"), "a#59;b#35;c#60;d#62;#38;e#37;#37;{f} "; got != want {
		t.Errorf("mermaidText: got %q, want %q", got, want)
	}
}

var mermaidEntity = regexp.MustCompile(`#(\d+);`)

// unescapeMermaid is text as Mermaid shows it: entity codes decoded.
func unescapeMermaid(s string) string {
	return mermaidEntity.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(m[1 : len(m)-1])
		return string(rune(n))
	})
}

// TestSVGWellFormed: the SVG is XML with a size and a viewBox, shows each
// lane's name, and reaches for nothing outside itself.
func TestSVGWellFormed(t *testing.T) {
	for name, tl := range map[string]Timeline{"blind-unlock": blindUnlock(), "double-booking": doubleBooking(), "six-sessions": sixSessions(), "nasty": nasty(), "empty": {}} {
		out := SVG(tl)
		texts, root, err := svgTexts(out)
		if err != nil {
			t.Errorf("%s: not XML: %v", name, err)
			continue
		}
		for _, attr := range []string{"width", "height", "viewBox"} {
			if root[attr] == "" {
				t.Errorf("%s: <svg> has no %s", name, attr)
			}
		}
		if root["font-family"] != "monospace" {
			t.Errorf("%s: font-family %q, want monospace", name, root["font-family"])
		}
		for _, l := range tl.Lanes {
			if !slices.Contains(texts, oneLine(l)) {
				t.Errorf("%s: no lane %q in %q", name, l, texts)
			}
		}
		for _, bad := range []string{"<script", "href", "url(", "@import", "<foreignObject", "<style"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: has %s", name, bad)
			}
		}
		if n := strings.Count(out, "http"); n != 1 || !strings.Contains(out, `xmlns="http://www.w3.org/2000/svg"`) {
			t.Errorf("%s: %d mentions of http, want only the SVG namespace", name, n)
		}
	}
}

// svgTexts parses out as XML and returns the text of each <text> element
// and the root's attributes.
func svgTexts(out string) ([]string, map[string]string, error) {
	d := xml.NewDecoder(strings.NewReader(out))
	var texts []string
	root := map[string]string{}
	depth, inText := 0, -1
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if tok.Name.Local != "svg" || tok.Name.Space != "http://www.w3.org/2000/svg" {
					return nil, nil, fmt.Errorf("root is %v", tok.Name)
				}
				for _, a := range tok.Attr {
					root[a.Name.Local] = a.Value
				}
			}
			if tok.Name.Local == "text" && inText < 0 {
				inText = depth
				cur.Reset()
			}
			depth++
		case xml.EndElement:
			depth--
			if depth == inText {
				texts = append(texts, cur.String())
				inText = -1
			}
		case xml.CharData:
			if inText >= 0 {
				cur.Write(tok)
			}
		}
	}
	return texts, root, nil
}

// mermaidDir is the Node package that holds Mermaid's parser.
const mermaidDir = "testdata/mermaid-check"

// mermaidParsed is what check.mjs read from one file.
type mermaidParsed struct {
	File         string
	Participants []struct{ ID, Name string }
	Messages     []struct{ From, To, Kind, Text string }
}

// parseMermaid runs Mermaid's parser on files: what it read, or its
// complaint.
func parseMermaid(t *testing.T, files ...string) ([]mermaidParsed, error) {
	t.Helper()
	node := redistest.NeedProgram(t, "node")
	npm := redistest.NeedProgram(t, "npm")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if !mermaidInstalled(t) {
		start := time.Now()
		cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		cmd.Dir = mermaidDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", mermaidDir, err, out)
		}
		t.Logf("npm ci took %v", time.Since(start).Round(time.Millisecond))
	}
	abs := make([]string, len(files))
	for i, f := range files {
		var err error
		if abs[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	cmd := exec.CommandContext(ctx, node, append([]string{"check.mjs"}, abs...)...)
	cmd.Dir = mermaidDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("mermaid parse of %d file(s) took %v", len(files), time.Since(start).Round(time.Millisecond))
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.Bytes())
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	var parsed []mermaidParsed
	if err := json.Unmarshal(stdout.Bytes(), &parsed); err != nil {
		t.Fatalf("check.mjs printed %q: %v", stdout.Bytes(), err)
	}
	return parsed, nil
}

// mermaidInstalled reports whether node_modules holds the mermaid that
// package.json pins.
func mermaidInstalled(t *testing.T) bool {
	t.Helper()
	var pkg struct{ Dependencies, Version map[string]string }
	var installed struct{ Version string }
	src, err := os.ReadFile(filepath.Join(mermaidDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(src, &pkg); err != nil {
		t.Fatal(err)
	}
	src, err = os.ReadFile(filepath.Join(mermaidDir, "node_modules", "mermaid", "package.json"))
	if err != nil || json.Unmarshal(src, &installed) != nil {
		return false
	}
	return installed.Version == pkg.Dependencies["mermaid"]
}

// TestMermaidParses runs Mermaid's own parser on the Mermaid goldens and
// on the nasty run, and checks it read what Mermaid was meant to: the
// participants by name, and every message and note whole (a stray # or ;
// would cut one short, a stray %%{ would vanish). A broken diagram must
// fail, or the check proves nothing.
func TestMermaidParses(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.mmd"))
	if err != nil || len(files) != len(runs) {
		t.Fatalf("want %d testdata/*.mmd, have %q (%v)", len(runs), files, err)
	}
	dir := t.TempDir()
	nastyFile := filepath.Join(dir, "nasty.mmd")
	emptyFile := filepath.Join(dir, "empty.mmd")
	broken := filepath.Join(dir, "broken.mmd")
	if err := os.WriteFile(nastyFile, []byte(Mermaid(nasty())), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(emptyFile, []byte(Mermaid(Timeline{})), 0o644); err != nil {
		t.Fatal(err)
	}
	// An unescaped ; ends the message early, leaving "b" where Mermaid
	// wants an arrow.
	brokenText := strings.Replace(Mermaid(blindUnlock()), "DEL lock:demo", "DEL a; b ->", 1)
	if err := os.WriteFile(broken, []byte(brokenText), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, emptyFile, nastyFile)

	parsed, err := parseMermaid(t, files...)
	if err != nil {
		t.Fatalf("Mermaid's parser failed: %v", err)
	}
	if len(parsed) != len(files) {
		t.Fatalf("parsed %d files, want %d", len(parsed), len(files))
	}
	for i, p := range parsed {
		src, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		wantP, wantM := readMermaid(string(src))
		gotP := fmt.Sprint(p.Participants)
		if gotP != fmt.Sprint(wantP) {
			t.Errorf("%s: Mermaid read participants %s, want %s", files[i], gotP, fmt.Sprint(wantP))
		}
		if len(p.Messages) != len(wantM) {
			t.Errorf("%s: Mermaid read %d messages and notes, want %d", files[i], len(p.Messages), len(wantM))
			continue
		}
		for j, m := range p.Messages {
			if fmt.Sprint(m) != fmt.Sprint(wantM[j]) {
				t.Errorf("%s: message %d: Mermaid read %+v, want %+v", files[i], j+1, m, wantM[j])
			}
		}
	}
	// The names Mermaid read are the sessions'.
	for _, p := range parsed[len(parsed)-1:] {
		var names []string
		for _, pp := range p.Participants {
			names = append(names, pp.Name)
		}
		tl := nasty()
		want := slices.Insert(slices.Clone(tl.Lanes), (len(tl.Lanes)+1)/2, "Redis")
		if fmt.Sprint(names) != fmt.Sprint(want) {
			t.Errorf("nasty: Mermaid read the participants %q, want %q", names, want)
		}
	}

	if _, err := parseMermaid(t, broken); err == nil {
		t.Errorf("Mermaid's parser accepted a broken diagram: the check cannot fail")
	} else if !strings.Contains(err.Error(), "Parse error") {
		t.Errorf("broken diagram: want a parse error, got %v", err)
	} else {
		t.Logf("a broken diagram fails, as it must: %.200s", err)
	}
}

// readMermaid reads our own Mermaid output the simple way (one statement
// a line): the participants, and the messages and notes as Mermaid should
// read them, entity codes decoded.
func readMermaid(src string) (participants []struct{ ID, Name string }, messages []struct{ From, To, Kind, Text string }) {
	arrow := regexp.MustCompile(`^(\w+)(-->>|->>)(\w+): (.*)$`)
	noteRe := regexp.MustCompile(`^Note over (\w+)(?:,(\w+))?: (.*)$`)
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "participant "); ok {
			id, name, _ := strings.Cut(rest, " as ")
			participants = append(participants, struct{ ID, Name string }{id, strings.TrimSpace(unescapeMermaid(name))})
		} else if m := arrow.FindStringSubmatch(line); m != nil {
			kind := "SOLID"
			if m[2] == "-->>" {
				kind = "DOTTED"
			}
			messages = append(messages, struct{ From, To, Kind, Text string }{m[1], m[3], kind, strings.TrimSpace(unescapeMermaid(m[4]))})
		} else if m := noteRe.FindStringSubmatch(line); m != nil {
			to := m[2]
			if to == "" {
				to = m[1]
			}
			messages = append(messages, struct{ From, To, Kind, Text string }{m[1], to, "NOTE", strings.TrimSpace(unescapeMermaid(m[3]))})
		}
	}
	return participants, messages
}

// TestSVGRendersInChromium draws each SVG golden, and the nasty run, in
// headless Chromium: the page must hold the SVG (not an XML error page)
// with each lane's name, and the screenshot must show it (the first
// lane's header in its colour, and not a blank page).
func TestSVGRendersInChromium(t *testing.T) {
	chromium := redistest.NeedProgram(t, "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
	files, err := filepath.Glob(filepath.Join("testdata", "*.svg"))
	if err != nil || len(files) != len(runs) {
		t.Fatalf("want %d testdata/*.svg, have %q (%v)", len(runs), files, err)
	}
	builds := map[string]func() Timeline{"nasty": nasty}
	for _, r := range runs {
		builds[r.name] = r.build
	}
	names := []string{"nasty"}
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".svg"))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tl := builds[name]()
			svg := []byte(SVG(tl))
			if name != "nasty" {
				var err error
				if svg, err = os.ReadFile(filepath.Join("testdata", name+".svg")); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			file := filepath.Join(dir, name+".svg")
			if err := os.WriteFile(file, svg, 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + filepath.ToSlash(file)

			// One launch dumps the DOM and takes the screenshot: a launch
			// costs seconds of CPU, more than what it then draws.
			shot := filepath.Join(dir, "x.png")
			dom := runChromium(t, chromium, dir, "--dump-dom", "--screenshot="+shot, "--window-size=1200,900", url)
			if !loadedSVG(dom) {
				t.Fatalf("Chromium did not load the SVG:\n%.2000s", dom)
			}
			for _, l := range tl.Lanes {
				if !bytes.Contains(dom, []byte(">"+domText.Replace(oneLine(l))+"<")) {
					t.Errorf("Chromium's DOM has no lane %q", l)
				}
			}
			checkScreenshot(t, shot, tl)
		})
	}
}

// loadedSVG reports whether Chromium's DOM dump is an SVG document, not
// its page for an XML error (a <parsererror>).
func loadedSVG(dom []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(dom), []byte("<svg")) && !bytes.Contains(dom, []byte("parsererror"))
}

// TestChromiumRejectsBrokenSVG: an SVG with an unescaped & is not loaded,
// or TestSVGRendersInChromium proves nothing.
func TestChromiumRejectsBrokenSVG(t *testing.T) {
	chromium := redistest.NeedProgram(t, "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.svg")
	broken := strings.Replace(SVG(blindUnlock()), "DEL lock:demo", "DEL lock:demo & more", 1)
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if dom := runChromium(t, chromium, dir, "--dump-dom", "file://"+filepath.ToSlash(file)); loadedSVG(dom) {
		t.Errorf("Chromium loaded a broken SVG: the check cannot fail\n%.500s", dom)
	}
}

// domText escapes text as a DOM serializer does (quotes stay).
var domText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// runChromium runs headless Chromium on its own profile in dir, for at
// most a minute, and returns what it wrote on stdout.
func runChromium(t *testing.T, chromium, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profile := filepath.Join(dir, "profile")
	cmd := exec.CommandContext(ctx, chromium, append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
		"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
		"--force-device-scale-factor=1", "--user-data-dir=" + profile,
	}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("chromium %s took %v", args[0], time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		t.Fatalf("chromium %s: timed out after 60s\n%s", args[0], stderr.Bytes())
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", args[0], err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// checkScreenshot: a 1200×900 PNG, not one colour, with the first lane's
// header (at its place in the SVG) in the lane's colour.
func checkScreenshot(t *testing.T, file string, tl Timeline) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	bounds := img.Bounds()
	if bounds.Dx() != 1200 || bounds.Dy() != 900 {
		t.Errorf("screenshot is %v, want 1200×900", bounds.Size())
	}
	colors := map[color.RGBA]int{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 3 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 3 {
			colors[rgba(img, x, y)]++
		}
	}
	if len(colors) < 10 {
		t.Errorf("screenshot has %d colours: blank?", len(colors))
	}
	if len(tl.Lanes) == 0 {
		return
	}
	// The first lane's header box starts at x = svgMargin+svgTimeW+2,
	// y = svgMargin; its text starts 8px in and sits about 18px down.
	want := laneRGBA(laneColors[0][0])
	x, y := int(svgMargin+svgTimeW+4), int(svgMargin+3)
	if got := rgba(img, x, y); got != want {
		t.Errorf("screenshot at (%d,%d) is %v, want the first lane's colour %v", x, y, got, want)
	}
}

func rgba(img image.Image, x, y int) color.RGBA {
	r, g, b, a := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

func laneRGBA(hex string) color.RGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}
