package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// labRuns is how many times each shipped .lab script runs on each kind of
// server (labRunsShort with -short). The scripts race sessions against each
// other and against TTLs, and their expectations must hold in every run,
// whichever session wins. What repeating a run adds is load: a timing
// margin too thin shows when many runs share the CPUs, so all the runs go
// at once (labParallel) rather than script by script; the 20 runs a kind we
// had shown nothing that 5 under that load did not, for four times the
// time. To hunt a rare failure, use -count.
const (
	labRuns      = 5
	labRunsShort = 2
)

// labParallel bounds the runs at once, both kinds and all scripts
// together. A run mostly sleeps (its work, its TTLs) but each one's
// sessions retry locks, and load.lab's workers every millisecond; with
// more at once on 2 CPUs under -race, the watchdogs (load.lab's extends
// a 200ms lock every 66ms) start to come late.
const labParallel = 16

// labScripts are the scripts on the lab's own server (the embedded one, or
// the real one started here); failoverScripts start their own primary and
// replica (real redis-server processes). The longest go first.
var (
	labScripts = []string{
		"load.lab", "watchdog.lab", "locks-fix.lab", "ttl-overlap.lab",
		"locks-break.lab", "blind-unlock.lab", "eval-release.lab",
		"fencing.lab", "double-booking.lab", "locked-booking.lab",
	}
	failoverScripts = []string{"failover-fixes.lab", "failover.lab"}
	// redlockScripts start their own embedded nodes (redlock up).
	redlockScripts = []string{"redlock-crash-restart.lab", "redlock-pause.lab", "redlock-fencing.lab", "redlock-clock-jump.lab", "redlock.lab"}
)

// TestLabScripts runs every script in scripts/ labRuns times on the
// embedded Redis and labRuns times on a real redis-server (each run on a
// database of its own), and the failover scripts labRuns times, all at
// once within labParallel, and requires exit status 0 (all expectations
// held) every time. The embedded runs need nothing installed; without
// redis-server the real and failover runs are skipped, except in CI.
func TestLabScripts(t *testing.T) {
	runs := labRuns
	if testing.Short() {
		runs = labRunsShort
	}
	slots := make(chan struct{}, labParallel)
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		runLabs(t, slots, labScripts, runs, nil)
	})
	t.Run("real", func(t *testing.T) {
		t.Parallel()
		addr := redistest.Real(t, "--databases", fmt.Sprint(len(labScripts)*runs))
		port := strings.TrimPrefix(addr, "127.0.0.1:")
		runLabs(t, slots, labScripts, runs, func(n int) []string { return []string{"-p", port, "-n", fmt.Sprint(n)} })
	})
	t.Run("redlock", func(t *testing.T) {
		t.Parallel()
		runLabs(t, slots, redlockScripts, runs, nil)
	})
	t.Run("failover", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("redis-server"); err != nil && !redistest.InCI() {
			t.Skip("the failover scripts start redis-server processes:", err)
		}
		runLabs(t, slots, failoverScripts, runs, nil)
	})
}

// runLabs runs each script runs times, each run a subtest SCRIPT/N that
// waits for a slot. The n-th run of all (from 0) gets flags(n), when not
// nil, before the script's name.
func runLabs(t *testing.T, slots chan struct{}, scripts []string, runs int, flags func(n int) []string) {
	var wg sync.WaitGroup
	n := 0
	for _, script := range scripts {
		for i := 1; i <= runs; i++ {
			args := []string{"scripts/" + script}
			if flags != nil {
				args = append(flags(n), args...)
			}
			n++
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				t.Run(fmt.Sprintf("%s/%d", script, i), func(t *testing.T) { runLab(t, args) })
			})
		}
	}
	wg.Wait()
}

func runLab(t *testing.T, args []string) {
	var out, errOut bytes.Buffer
	if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Errorf("locklab %s: exit status %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, &out, &errOut)
	}
}
