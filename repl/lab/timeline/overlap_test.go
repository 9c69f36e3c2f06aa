package timeline

import (
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lab/check"
)

// believed is hold with the end of its holder's belief.
func believed(h check.Holding, secs float64) check.Holding {
	h.Believed = at(secs)
	return h
}

// TestOverlapsDrawn checks that Build draws each overlap check.Overlaps
// finds in the holdings as two notes, where it begins (in the lane of the
// session whose acquisition began it) and where it ends (in the lane of
// the session whose belief ended it), and nothing for holdings that only
// touch.
func TestOverlapsDrawn(t *testing.T) {
	holdings := []check.Holding{
		believed(hold("lock:x", "w2", "t2", 0.002, 0.302, check.Expired, ""), 0.503),
		believed(hold("lock:x", "w3", "t3", 0.306, 0.503, check.Deleted, "w2"), 0.807),
		believed(hold("lock:x", "w1", "t1", 0.504, 0.804, check.Expired, ""), 1.005),
		believed(hold("lock:y", "a", "ta", 0.000, 0.100, check.Released, ""), 0.100),
		believed(hold("lock:y", "b", "tb", 0.100, 0.200, check.Released, ""), 0.200), // touches a's: no overlap
	}
	tl := Build(runStart, nil, nil, holdings, nil)
	var got []string
	for _, it := range tl.Items {
		if it.Kind == Note {
			got = append(got, offset(it.At)+" "+it.Lane+" "+it.Text)
		}
	}
	want := []string{
		"+0.306s w3 OVERLAP on lock:x begins: w2, w3 believed they held it at once",
		"+0.503s w2 OVERLAP on lock:x ends, after 197ms",
		"+0.504s w1 OVERLAP on lock:x begins: w3, w1 believed they held it at once",
		"+0.807s w3 OVERLAP on lock:x ends, after 303ms",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("overlap notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(tl.Overlaps) != 2 {
		t.Errorf("Overlaps = %+v, want the 2 periods drawn", tl.Overlaps)
	}
	if out := Compact(tl, 120, Style{}); strings.Count(out, "OVERLAP on lock:x begins") != 2 {
		t.Errorf("Compact does not show both overlaps:\n%s", out)
	}
}
