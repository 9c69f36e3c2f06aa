package timeline

import (
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lab/check"
)

// TestPicturesInTheNotesOrder: the server ran alice's RPUSH first (reply
// 1) and bob's second (reply 2), and the annotator read them so (Seq),
// but bob's reply reached locklab first (an earlier End). Every picture
// draws alice's RPUSH above bob's, as the notes have them; before, they
// sorted by End and drew bob's reply 2 above alice's reply 1.
func TestPicturesInTheNotesOrder(t *testing.T) {
	events := []Event{
		ev(0.000, 0.001, "main", "0", "DEL", "room:2pm:bookings"),
		ev(0.300, 0.320, "alice", "1", "RPUSH", "room:2pm:bookings", "alice"),
		ev(0.300, 0.310, "bob", "2", "RPUSH", "room:2pm:bookings", "bob"),
	}
	for i := range events {
		events[i].Seq = i + 1
	}
	notes := []TimedNote{{Note: check.Note{Session: "bob", Level: check.Bad, Text: "double booked"}, At: at(0.310), Seq: 3}}
	holdings := []check.Holding{hold("lock:x", "main", "t", 0.001, 0.305, check.Expired, "")}
	tl := Build(runStart, events, notes, holdings, nil)
	for name, out := range map[string]string{
		"terminal": Terminal(tl, 120, Style{}),
		"compact":  Compact(tl, 80, Style{}),
		"mermaid":  Mermaid(tl),
		"svg":      SVG(tl),
	} {
		a, b := strings.Index(out, "RPUSH room:2pm:bookings alice"), strings.Index(out, "RPUSH room:2pm:bookings bob")
		if a < 0 || b < 0 || a > b {
			t.Errorf("%s: alice's RPUSH at %d, bob's at %d; want alice's (reply 1) first:\n%s", name, a, b, out)
		}
		if n, e := strings.Index(out, "double booked"), strings.Index(out, "expired"); n < b || e > a {
			t.Errorf("%s: bob's note at %d (bob's RPUSH %d), the expiry at +0.305s at %d (alice's RPUSH %d): want the note under bob's RPUSH and the expiry above both", name, n, b, e, a)
		}
	}
}
