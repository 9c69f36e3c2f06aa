package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// orderRuns overrides how many runs TestServerOrder makes on each kind of
// server (the 100-run check: -orderruns 100).
var orderRuns = flag.Int("orderruns", 0, "runs of locked-booking.lab per server in TestServerOrder (0: 10, 3 with -short)")

// orderParallel is how many runs go at once: racing for the CPUs is what
// made replies come in an order the server did not run the commands in.
const orderParallel = 10

// TestServerOrder runs scripts/locked-booking.lab with --timeline many
// times, 10 at a time, on the embedded Redis and on a real redis-server
// (each run on a database of its own). Alice and bob race for the lock;
// in every run, the winner's "lock acquired" note comes before the
// loser's "lock not acquired: held by <winner>", and the timeline draws
// the winner's SET ... → OK above the loser's SET ... → (nil): the order
// the server ran them in, whichever reply reached locklab first.
func TestServerOrder(t *testing.T) {
	onServers(t, []string{"--timeline", "scripts/locked-booking.lab"}, func(out, _ string) error { return checkServerOrder(out) })
}

// TestServerOrderBookings runs scripts/double-booking.lab with --timeline
// and --mermaid many times, 10 at a time, embedded and on redis-server:
// in every run, the RPUSH the server ran first (reply 1) is drawn above
// the second (reply 2), in the terminal timeline and in the Mermaid
// diagram, whichever reply reached locklab first (before: bob's reply 2
// above alice's reply 1 in about 1 run in 5 embedded, 2 in 3 real).
func TestServerOrderBookings(t *testing.T) {
	onServers(t, []string{"--timeline", "--mermaid", mermaidFile, "scripts/double-booking.lab"}, checkBookingOrder)
}

// mermaidFile stands for a file of the run's own in onServers' args.
const mermaidFile = "\x00mmd"

// onServers runs locklab with args many times on each kind of server,
// 10 at a time (each real run on a database of its own), and checks
// each run's output (and the Mermaid file it wrote, if any).
func onServers(t *testing.T, args []string, check func(out, mmd string) error) {
	runs := 10
	if testing.Short() {
		runs = 3
	}
	if *orderRuns > 0 {
		runs = *orderRuns
	}
	slots := make(chan struct{}, orderParallel)
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		orderRunsOn(t, slots, runs, func(int) []string { return nil }, args, check)
	})
	t.Run("real", func(t *testing.T) {
		t.Parallel()
		port := strings.TrimPrefix(redistest.Real(t, "--databases", fmt.Sprint(runs)), "127.0.0.1:")
		orderRunsOn(t, slots, runs, func(n int) []string { return []string{"-p", port, "-n", fmt.Sprint(n)} }, args, check)
	})
}

func orderRunsOn(t *testing.T, slots chan struct{}, runs int, flags func(n int) []string, script []string, check func(out, mmd string) error) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for n := range runs {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			args, mmd := flags(n), fmt.Sprintf("%s/%d.mmd", dir, n)
			for _, a := range script {
				if a == mermaidFile {
					a = mmd
				}
				args = append(args, a)
			}
			var out, errOut bytes.Buffer
			if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
				t.Errorf("locklab %s: exit status %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, &out, &errOut)
				return
			}
			if err := check(out.String(), mmd); err != nil {
				t.Errorf("run %d: %v\noutput:\n%s", n, err, &out)
			}
		})
	}
	wg.Wait()
}

// checkBookingOrder requires reply 1's RPUSH above reply 2's in the
// terminal timeline and in the Mermaid file.
func checkBookingOrder(out, mmd string) error {
	_, timeline, found := strings.Cut(out, "\ntime ")
	if !found {
		return fmt.Errorf("no timeline")
	}
	rows, err := swimlane("time " + timeline)
	if err != nil {
		return err
	}
	var drawn []string
	for _, r := range rows {
		if text := strings.ReplaceAll(r.text, " ", ""); strings.HasPrefix(text, "RPUSHroom:2pm:bookings") {
			drawn = append(drawn, text[strings.LastIndex(text, "→")+len("→"):])
		}
	}
	if strings.Join(drawn, " ") != "1 2" {
		return fmt.Errorf("the timeline draws the RPUSH replies in the order %q; want 1 2", drawn)
	}
	src, err := os.ReadFile(mmd)
	if err != nil {
		return err
	}
	replies := regexp.MustCompile(`(?m)->>R: \+[0-9.]+s RPUSH room:2pm:bookings \w+\n.*-->>.*: \+[0-9.]+s (\d+)$`).FindAllStringSubmatch(string(src), -1)
	var got []string
	for _, m := range replies {
		got = append(got, m[1])
	}
	if strings.Join(got, " ") != "1 2" {
		return fmt.Errorf("the Mermaid diagram draws the RPUSH replies in the order %q; want 1 2:\n%s", got, src)
	}
	return nil
}

var (
	acquiredNote = regexp.MustCompile(`↳ (?:\w+: )?lock acquired: (\w+) holds lock:room:2pm`)
	heldByNote   = regexp.MustCompile(`↳ (?:\w+: )?lock not acquired: held by (\w+)`)
)

// checkServerOrder reads a run's output: the notes, then the timeline.
func checkServerOrder(out string) error {
	notes, timeline, found := strings.Cut(out, "\ntime ")
	if !found {
		return fmt.Errorf("no timeline")
	}
	winner, err := checkNotes(notes)
	if err != nil {
		return err
	}
	return checkTimeline("time "+timeline, winner)
}

// checkNotes finds the winner (the one "lock acquired" note) and requires
// every "held by <winner>" note to come after it, and at least one.
func checkNotes(notes string) (winner string, err error) {
	lines := strings.Split(notes, "\n")
	acquiredAt, heldBy := -1, 0
	for i, line := range lines {
		if m := acquiredNote.FindStringSubmatch(line); m != nil {
			if acquiredAt >= 0 {
				return "", fmt.Errorf("two lock acquired notes: %q and %q", lines[acquiredAt], line)
			}
			acquiredAt, winner = i, m[1]
		}
		if m := heldByNote.FindStringSubmatch(line); m != nil {
			if acquiredAt < 0 || m[1] != winner {
				return "", fmt.Errorf("%q printed before any note that %s acquired the lock", strings.TrimSpace(line), m[1])
			}
			heldBy++
		}
	}
	if heldBy == 0 {
		return "", fmt.Errorf("no \"lock not acquired: held by\" note")
	}
	return winner, nil
}

// row is one item of the swimlane: its lane and its text, joined from the
// lines it wraps over.
type row struct{ lane, text string }

// checkTimeline requires the winner's SET ... → OK row above the loser's
// SET ... → (nil) row.
func checkTimeline(timeline, winner string) error {
	rows, err := swimlane(timeline)
	if err != nil {
		return err
	}
	won, lost := -1, -1
	for i, r := range rows {
		text := strings.ReplaceAll(r.text, " ", "") // wrapped mid-word or at a space
		switch {
		case !strings.HasPrefix(text, "SETlock:room:2pm"):
		case strings.HasSuffix(text, "→OK") && won < 0:
			won = i
			if r.lane != winner {
				return fmt.Errorf("the timeline's SET → OK is %s's; the notes say %s won", r.lane, winner)
			}
		case strings.HasSuffix(text, "→(nil)") && lost < 0:
			lost = i
		}
	}
	if won < 0 || lost < 0 || lost < won {
		return fmt.Errorf("in the timeline, the winner's SET → OK is row %d, the loser's SET → (nil) row %d; want both, OK first", won, lost)
	}
	return nil
}

// swimlane reads the terminal timeline: a header of lanes (the script's
// sessions) and lock columns, then rows whose time cell starts an item
// and whose lane cells carry its text.
func swimlane(timeline string) ([]row, error) {
	sessions := map[string]bool{"main": true, "alice": true, "bob": true}
	lines := strings.Split(timeline, "\n")
	lanes := strings.Split(lines[0], "│")
	if len(lines) < 3 || strings.TrimSpace(lanes[0]) != "time" {
		return nil, fmt.Errorf("no swimlane timeline")
	}
	var rows []row
	for _, line := range lines[2:] {
		cells := strings.Split(line, "│")
		if len(cells) < len(lanes) {
			break // the verdict under the timeline
		}
		if strings.TrimSpace(cells[0]) != "" {
			rows = append(rows, row{})
		}
		for i := 1; i < len(lanes) && len(rows) > 0; i++ {
			if text := strings.TrimSpace(cells[i]); text != "" && sessions[strings.TrimSpace(lanes[i])] {
				r := &rows[len(rows)-1]
				r.lane, r.text = strings.TrimSpace(lanes[i]), strings.TrimSpace(r.text+" "+text)
			}
		}
	}
	return rows, nil
}
