package lab

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/locklab/locklab/repl/lab/capture"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

const recordUsage = "record FILE.lab | record stop | record"

// recordSpec is record's arguments: a file to record into, stop, or none.
var recordSpec = &flags.Spec{Name: "record", Args: []flags.Arg{{Name: "FILE.lab|stop", Optional: true}}}

// recordWord is `record FILE.lab` (from now on, every entry typed is
// written to FILE.lab with an expectation for what it showed), `record
// stop` (end it with the verdict) and `record` (say what is recorded).
// Only a person at the prompt records: a script writes no host file.
func recordWord(ctx context.Context, env words.Env, args []string) error {
	tape := capture.Part.Of(env)
	switch {
	case len(args) == 1:
		if f := tape.Recording(); f != "" {
			fmt.Fprintf(env.Stdout(), "record: recording into %s (record stop ends it)\n", f)
		} else {
			fmt.Fprintln(env.Stdout(), "record: not recording (record FILE.lab starts)")
		}
		return nil
	case len(args) == 2 && args[1] == "stop":
		file, err := tape.Stop(recordedKinds(findings(ctx, env))) // as Run.StopRecording
		if err != nil {
			return words.Failf("%v", err)
		}
		fmt.Fprintf(env.Stdout(), "record: wrote %s; it checks itself: locklab %s\n", file, file)
		return nil
	case len(args) != 2 || filepath.Ext(args[1]) != ".lab":
		return &words.Error{Status: 2, Msg: "record: want a .lab file to write, or stop\nusage: " + recordUsage}
	case !env.Interactive() || env.InFile():
		return words.Failf("record: only a person at the prompt records (a script writes no file on the host)")
	}
	if err := tape.Start(args[1]); err != nil {
		return words.Failf("%v", err)
	}
	recorderOf(env).Reset() // a run of its own: the verdicts from now on judge what the file holds
	fmt.Fprintf(env.Stdout(), "record: every entry from now on goes to %s, with what it showed; record stop ends it\n", args[1])
	return nil
}

// recordedKinds are the bugs a verdict showed, as a recording expects
// them: a bug the REPL's verdict found is found again by the file's, which
// judges the whole file as one run; "all clear" and "no verdict" are not
// kept, since the REPL judges each entry that starts jobs on its own.
func recordedKinds(findings []check.Finding) []string {
	var out []string
	for _, f := range findings {
		if f.Bad() && !slices.Contains(out, string(f.Kind)) {
			out = append(out, string(f.Kind))
		}
	}
	return out
}
