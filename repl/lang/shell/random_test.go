package shell

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/lines"
)

// TestSeededRandom: with Config.Seed (explore's), $RANDOM draws the same
// numbers in every run of a script, in main, in each job and in a script
// another runs, and no two of them draw the same numbers (each job's
// tokens are its own, a job's inside another's too); without it, each run draws others, as bash's
// $RANDOM does. (A job's $RANDOM used to come from the process's random
// source whatever the seed: explore could not replay a schedule whose
// tokens came from it.)
func TestSeededRandom(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "draw.lab"), []byte("echo \"draw.lab $RANDOM $RANDOM\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := redistest.Embedded(t)
	seeded, again := draws(t, addr, dir, 1), draws(t, addr, dir, 1)
	if seeded != again {
		t.Errorf("seeded, two runs drew\n%s\nand\n%s", seeded, again)
	}
	numbers := strings.Fields(seeded)
	numbers = slices.DeleteFunc(numbers, func(w string) bool { return strings.Trim(w, "0123456789") != "" })
	if len(numbers) != 12 || len(slices.Compact(slices.Sorted(slices.Values(numbers)))) != 12 {
		t.Errorf("seeded, main, the jobs, the jobs inside a job and the script drew %q: want 12 numbers, no two the same", numbers)
	}
	if a := draws(t, addr, dir, 0); strings.Contains(a, "inner1 ") && innerDraws(a, "inner1") == innerDraws(a, "inner2") {
		t.Errorf("unseeded, two jobs inside a job drew the same:\n%s", a)
	}
	if a, b := draws(t, addr, dir, 0), draws(t, addr, dir, 0); a == b {
		t.Errorf("unseeded, two runs drew the same:\n%s", a)
	}
}

// innerDraws is what the line of drawer printed after its name.
func innerDraws(lines, drawer string) string {
	for _, l := range strings.Split(lines, "\n") {
		if after, ok := strings.CutPrefix(l, drawer+" "); ok {
			return after
		}
	}
	return ""
}

// draws runs a script whose main, two jobs, two jobs inside a job and a
// script it runs each print $RANDOM twice, with Config.Seed seed, and returns its lines,
// sorted (the jobs print in either order).
func draws(t *testing.T, addr, dir string, seed uint64) string {
	t.Helper()
	sessions := session.NewSet(session.Target{Network: "tcp", Addr: addr})
	defer sessions.Close()
	var out syncBuffer
	sh, err := New(Config{Sessions: sessions, Stdout: &out, Stderr: &out, Dir: dir, Observe: lab.Observe, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	script := "f() { echo \"$1 $RANDOM $RANDOM\"; }\nf alice & f bob & wait\necho \"main $RANDOM $RANDOM\"\nrun draw.lab\n" +
		"g() { f inner1 & f inner2 & wait; }\ng & wait\n"
	if err := sh.Run(context.Background(), Source{Lines: lines.From(strings.NewReader(script)), Name: "t.lab", Whole: true}); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	slices.Sort(got)
	return strings.Join(got, "\n")
}
