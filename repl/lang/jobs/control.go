package jobs

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/lang/words"
)

// Control words act on the table's jobs only: the lab runs no host
// process, so there is no PID to name and no signal but the ones that end
// a job.
const (
	killUsage = "kill [-s SIGNAL | -SIGNAL] %JOB ...   (JOB: its number, its session's name, or %% for the last; jobs lists them)"
	noPIDs    = "the lab runs no processes: kill takes jobs, as %1, %alice or %% (jobs lists them)"
)

// signals are the signals kill takes, by name and number: each ends the
// job, as it would end a process that does not catch it.
var signals = map[string]int{"TERM": 15, "INT": 2, "KILL": 9}

// Controls reports whether args is job control the table answers: jobs,
// kill, and wait for a job spec (wait %1).
func Controls(args []string) bool {
	switch args[0] {
	case "jobs", "kill":
		return true
	case "wait":
		return slices.ContainsFunc(args[1:], func(a string) bool { return strings.HasPrefix(a, "%") })
	}
	return false
}

// Control runs jobs, kill or wait %N in the handler's context.
func (j *Jobs) Control(ctx context.Context, args []string) error {
	switch args[0] {
	case "jobs":
		return j.list(interp.HandlerCtx(ctx).Stdout, args[1:])
	case "kill":
		return j.kill(args[1:])
	}
	return j.wait(ctx, args[1:])
}

// list prints the jobs running, `[N]  Running  NAME  COMMAND`, and those
// that ended since the last look, once (bash's Done, Exit N, Terminated).
func (j *Jobs) list(w io.Writer, specs []string) error {
	if len(specs) > 0 && strings.HasPrefix(specs[0], "-") {
		return &words.Error{Status: 2, Msg: "jobs: " + specs[0] + ": the lab's jobs have no process ids; usage: jobs [%JOB ...]"}
	}
	shown, msgs := j.pick("jobs", specs)
	t := &j.table
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, jb := range shown {
		fmt.Fprintf(w, "[%d]  %s  %s  %s\n", jb.n, state(jb), jb.name, jb.text)
	}
	t.reap(func(jb *job) bool { return !slices.Contains(shown, jb) })
	return failure(1, msgs)
}

// state is a job's state as jobs words it. Called with the table's lock.
func state(jb *job) string {
	switch {
	case !jb.finished:
		return "Running"
	case jb.signal != 0 && !jb.ended:
		return "Terminated"
	case jb.status != 0:
		return fmt.Sprintf("Exit %d", jb.status)
	}
	return "Done"
}

// pick is the jobs specs name (every job when none), and what went wrong
// with the others.
func (j *Jobs) pick(word string, specs []string) (picked []*job, msgs []string) {
	if len(specs) == 0 {
		j.table.mu.Lock()
		defer j.table.mu.Unlock()
		return slices.Clone(j.table.live), nil
	}
	for _, spec := range specs {
		if jb, msg := j.find(word, spec); jb != nil {
			picked = append(picked, jb)
		} else {
			msgs = append(msgs, msg)
		}
	}
	return picked, msgs
}

// find is the job spec names: %N, %NAME (its session, else the start of
// its command line, as bash's %string), %% or %+ (the last started), %-
// (the one before). msg says why there is none.
func (j *Jobs) find(word, spec string) (_ *job, msg string) {
	t := &j.table
	t.mu.Lock()
	defer t.mu.Unlock()
	name, ok := strings.CutPrefix(spec, "%")
	if !ok {
		return nil, fmt.Sprintf("%s: %s: %s", word, spec, noPIDs)
	}
	var found []*job
	switch n, err := strconv.Atoi(name); {
	case name == "%" || name == "+" || name == "":
		found = t.live[max(len(t.live)-1, 0):]
	case name == "-": // the one before the last, or the only one
		i := max(len(t.live)-2, 0)
		found = t.live[i:min(i+1, len(t.live))]
	case err == nil:
		found = slices.DeleteFunc(slices.Clone(t.live), func(jb *job) bool { return jb.n != n })
	default:
		found = matching(t.live, name)
	}
	switch len(found) {
	case 0:
		return nil, fmt.Sprintf("%s: %s: no such job", word, spec)
	case 1:
		return found[0], ""
	}
	return nil, fmt.Sprintf("%s: %s: ambiguous job spec (%d jobs match: name one by its number)", word, spec, len(found))
}

// matching are the jobs of session name, else those whose command line
// starts with it.
func matching(live []*job, name string) []*job {
	named := slices.DeleteFunc(slices.Clone(live), func(jb *job) bool { return jb.name != name })
	if len(named) > 0 {
		return named
	}
	return slices.DeleteFunc(slices.Clone(live), func(jb *job) bool { return !strings.HasPrefix(jb.text, name) })
}

// failure is status with msgs, one a line, or nil without any.
func failure(status int, msgs []string) error {
	if len(msgs) == 0 {
		return nil
	}
	return &words.Error{Status: status, Msg: "locklab: " + strings.Join(msgs, "\nlocklab: "), Bare: true}
}
