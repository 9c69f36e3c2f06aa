package jobs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/lang/words"
)

// kill ends the jobs specs name: their context is cancelled, so that the
// command each runs returns (a sleep wakes, a SUBSCRIBE's connection is
// closed, to be dialled anew by its session's next command) and its
// shell stops there. Its session keeps the rest of its state. The status
// is 1 when a spec names no running job, 2 for bad arguments.
func (j *Jobs) kill(args []string) error {
	sig, specs, err := killArgs(args)
	if err != nil {
		return err
	}
	var msgs []string
	for _, spec := range specs {
		jb, msg := j.find("kill", spec)
		if jb == nil {
			msgs = append(msgs, msg)
			continue
		}
		j.table.mu.Lock()
		finished := jb.finished
		if finished {
			msgs = append(msgs, fmt.Sprintf("kill: %s: the job has already ended", spec))
		} else if jb.signal == 0 {
			jb.signal = sig
		}
		j.table.mu.Unlock()
		if !finished { // the jobs an ended job started are on their own, as in bash
			jb.cancel()
		}
	}
	return failure(1, msgs)
}

// killArgs reads kill's arguments: the signal (TERM unless told), then
// the job specs.
func killArgs(args []string) (sig int, specs []string, err error) {
	name := "TERM"
	switch {
	case len(args) > 1 && (args[0] == "-s" || args[0] == "-n"):
		name, args = args[1], args[2:]
	case len(args) > 0 && args[0] == "--":
		args = args[1:]
	case len(args) > 0 && len(args[0]) > 1 && strings.HasPrefix(args[0], "-"):
		name, args = args[0][1:], args[1:]
	}
	if sig = signalNumber(name); sig == 0 {
		return 0, nil, words.Failf("kill: %s: not a signal the lab's jobs take: TERM (the default), INT or KILL end a job; nothing here pauses or resumes one", name)
	}
	if len(args) == 0 {
		return 0, nil, words.Usage(killUsage)
	}
	return sig, args, nil
}

// signalNumber is the number of a signal kill takes, by name (TERM,
// SIGTERM, term) or number; 0 for any other.
func signalNumber(name string) int {
	if n, err := strconv.Atoi(name); err == nil {
		for _, sig := range signals {
			if sig == n {
				return n
			}
		}
		return 0
	}
	return signals[strings.TrimPrefix(strings.ToUpper(name), "SIG")]
}

// wait waits for the jobs specs name, and is the last one's status, as
// bash's `wait %1`; 127 when a spec names no job. A job waited for is
// reaped. Ctrl-C stops the wait.
func (j *Jobs) wait(ctx context.Context, specs []string) error {
	self := j.lookup(ctx)
	status := 0
	var msgs []string
	for _, spec := range specs {
		jb, msg := j.find("wait", spec)
		if jb == self && jb != nil {
			jb, msg = nil, fmt.Sprintf("wait: %s: a job cannot wait for itself", spec)
		}
		if jb == nil {
			msgs, status = append(msgs, msg), 127
			continue
		}
		select {
		case <-jb.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		j.table.mu.Lock()
		status = jb.status
		j.table.reap(func(other *job) bool { return other != jb })
		j.table.mu.Unlock()
	}
	if err := failure(status, msgs); err != nil || status == 0 {
		return err
	}
	return interp.ExitStatus(status) // a job's status is no failure of wait's
}
