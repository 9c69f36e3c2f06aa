package shell

import (
	"context"
	"fmt"

	"github.com/locklab/locklab/repl/session"
	"github.com/locklab/locklab/repl/timeline"
	"github.com/locklab/locklab/repl/words"
)

// Timeline is the picture of the run so far.
func (s *Shell) Timeline(ctx context.Context) timeline.Timeline {
	return s.rec.Timeline(s.findings(ctx))
}

// DrawTimeline draws the run's timeline on the lab's output, width
// columns wide.
func (s *Shell) DrawTimeline(ctx context.Context, width int) {
	mainOut, _ := s.out.Writers(session.Main)
	fmt.Fprint(mainOut, words.Draw(s.Timeline(ctx), s.out, width, false))
	s.out.Flush()
}
