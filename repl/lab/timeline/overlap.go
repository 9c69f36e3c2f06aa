package timeline

import (
	"time"

	"github.com/locklab/locklab/repl/lab/check"
)

// addOverlaps draws each period in which two or more sessions believed
// they held the same lock, as check.Overlaps finds them in the holdings
// (the same periods the verdict counts): a note where the period begins,
// in the lane of the session whose acquisition began it, and one where it
// ends, in the lane of the session whose belief ended it.
func (t *Timeline) addOverlaps(holdings []check.Holding, off func(time.Time) time.Duration) {
	t.Overlaps = check.Overlaps(holdings)
	for _, o := range t.Overlaps {
		begin := check.Say("OVERLAP on %s begins: %s believed they held it at once", o.Key, o.Sessions)
		end := check.Say("OVERLAP on %s ends, after %s", o.Key, o.Until.Sub(o.From).Round(time.Microsecond))
		t.addLane(o.Opened)
		t.addLane(o.Closed)
		t.Items = append(t.Items,
			Item{At: off(o.From), End: off(o.From), Lane: o.Opened, Kind: Note, Text: begin, Level: check.Bad},
			Item{At: off(o.Until), End: off(o.Until), Lane: o.Closed, Kind: Note, Text: end, Level: check.Bad})
	}
}
