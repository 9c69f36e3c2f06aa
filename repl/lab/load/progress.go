package load

import (
	"fmt"
	"io"

	"github.com/locklab/locklab/repl/lab/load/progress"
)

// newProgressBar draws the run's progress on w: cycles done out of all,
// with the mode's telling counters.
func newProgressBar(w io.Writer, cfg Config, c *counters) *progress.Bar {
	return progress.New(w, int64(cfg.Workers)*int64(cfg.Iterations), func() (int64, string) {
		return c.done.Load(), label(cfg.Mode, c)
	})
}

// label is the bar's label: the mode and what it is about, short
// enough for the whole line to fit in 80 columns.
func label(mode string, c *counters) string {
	switch mode {
	case ModeBreak:
		return fmt.Sprintf("break · wrong-owner DEL %d · lost %d", c.wrongOwner.Load(), c.lost.Load())
	case ModeExtend:
		return fmt.Sprintf("extend · overlaps %d · too late %d", c.overlaps.Load(), c.lostExtensions.Load())
	case ModeFenced:
		return fmt.Sprintf("fenced · refused %d · lost %d", c.fencedRejected.Load(), c.lost.Load())
	}
	return fmt.Sprintf("%s · overlaps %d · lost %d", mode, c.overlaps.Load(), c.lost.Load())
}
