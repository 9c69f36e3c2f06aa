package explore

import (
	"os"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/words"
)

// TestMain gives a schedule far longer than a user's 3 s of wall-clock
// time without a step before it counts as stuck: on a machine loaded by
// the rest of the suite (and -race), a long search's schedule was once
// stopped as "no reply in 3s" while it was only waiting for a CPU. The
// tests of stuck schedules set their own, short, bound.
func TestMain(m *testing.M) {
	words.Install(lab.Words(), Words(WordOptions{})) // the words of the scripts it explores, as the program installs them
	sched.StallAfter = 30 * time.Second
	os.Exit(m.Run())
}
