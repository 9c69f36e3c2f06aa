package app

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/locklab/locklab/repl/explore"
)

// isExplore reports whether the command line is `locklab explore FILE
// [ARGS]`.
func isExplore(o Options) bool {
	return !o.HasLine && len(o.Args) >= 2 && o.Args[0] == "explore"
}

// runExplore runs a script once per schedule on embedded Redis servers
// of its own (see package explore) and reports: 0 when no schedule
// failed, 1 when one did, 2 when the script could not be explored.
func runExplore(o Options, stdout, stderr io.Writer) int {
	name := o.Args[1]
	text, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "locklab: explore: %v\n", err)
		return 127
	}
	dir, _ := os.Getwd()
	sc := explore.Script{Name: name, Text: text, Args: o.Args[2:], Scripts: o.Scripts, Dir: dir}
	ctx := context.Background()
	r, err := explore.Explore(ctx, sc, explore.Bound{})
	if err == nil {
		err = r.Report(ctx, stdout, sc)
	}
	if err != nil {
		fmt.Fprintf(stderr, "locklab: explore: %s: %v\n", name, err)
		return 2
	}
	if r.Failed() {
		return 1
	}
	return 0
}
