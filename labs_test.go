package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/redistest"
)

// labRuns is how many times each shipped .lab script runs on each kind of
// server. The scripts race sessions against each other (and against TTLs):
// their expectations must hold in every run, whichever session wins.
const labRuns = 20

// labParallel bounds the runs of a script at once: the scripts race against
// TTLs of a few hundred milliseconds, and the whole suite shares two CPUs
// under -race; more at once would starve the very timings they show.
const labParallel = 10

var labScripts = []string{
	"double-booking.lab", "locked-booking.lab", "blind-unlock.lab",
	"eval-release.lab", "locks-break.lab", "locks-fix.lab",
	"ttl-overlap.lab", "watchdog.lab", "fencing.lab", "load.lab",
	"failover.lab", "failover-fixes.lab",
}

// TestLabScripts runs every script in scripts/ labRuns times on the
// embedded Redis and labRuns times on a real redis-server (each run on a
// database of its own), all runs of a script at once, and requires exit
// status 0 (all expectations held) every time. The failover scripts start
// their own primary and replica (real redis-server processes) and run
// labRuns times.
func TestLabScripts(t *testing.T) {
	port := strings.TrimPrefix(redistest.Real(t, "--databases", fmt.Sprint(2*labRuns)), "127.0.0.1:")
	for _, script := range labScripts {
		t.Run(script, func(t *testing.T) {
			var wg sync.WaitGroup
			runs := 2 * labRuns
			if strings.HasPrefix(script, "failover") {
				runs = labRuns // it starts its own primary and replica: one kind of run
			}
			slots := make(chan struct{}, labParallel)
			for i := range runs {
				args := []string{"scripts/" + script}
				if i >= labRuns {
					args = append([]string{"-p", port, "-n", fmt.Sprint(i)}, args...)
				}
				wg.Go(func() {
					slots <- struct{}{}
					defer func() { <-slots }()
					runLab(t, args)
				})
			}
			wg.Wait()
		})
	}
}

func runLab(t *testing.T, args []string) {
	var out, errOut bytes.Buffer
	if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Errorf("locklab %s: exit status %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, &out, &errOut)
	}
}
