package record

import (
	"strings"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
)

// Expected counts one expectation of the run, and whether it held.
func (r *Recorder) Expected(held bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expects++
	if !held {
		r.failed++
		r.anyFailed = true
	}
}

// TakeExpectations is how many expectations the run checked since the
// last summary, and how many failed; counting starts anew, so that a
// summary (a script's from the REPL, then the pipe's around it) counts
// each expectation once.
func (r *Recorder) TakeExpectations() (checked, failed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	checked, failed = r.expects, r.failed
	r.expects, r.failed = 0, 0
	return checked, failed
}

// AddExpectations counts expectations back in: those an outer run had
// checked before a run inside it (a script from the prompt) took its own.
func (r *Recorder) AddExpectations(checked, failed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expects += checked
	r.failed += failed
	r.anyFailed = r.anyFailed || failed > 0
}

// AnyFailed reports whether any expectation failed since locklab began,
// in this run or in a run inside it.
func (r *Recorder) AnyFailed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.anyFailed
}

// Failed counts a command of the run that ended in an error (a refused
// word, bad arguments, a connection that failed, an error reply), and
// keeps the first one's description: a verdict of "all clear" needs a run
// in which nothing failed.
func (r *Recorder) Failed(desc string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failures == 0 {
		r.firstFailure = desc
	}
	r.failures++
}

// RedisError counts an error reply from Redis (for -e).
func (r *Recorder) RedisError() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redisErrs++
}

// RedisErrors is how many error replies Redis gave since locklab began.
func (r *Recorder) RedisErrors() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.redisErrs
}

// Printed remembers the reply session name printed last.
func (r *Recorder) Printed(name string, reply resp.Reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies[name] = RawText(reply)
	r.replies[anySession] = r.replies[name]
}

// LastReply is the raw text of the last reply session name printed; for
// main (a script's own lines), of the last reply any session printed, so
// that `@A SET ...` then `expect reply OK` reads as it looks.
func (r *Recorder) LastReply(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == session.Main {
		return r.replies[anySession]
	}
	return r.replies[name]
}

// RawText is a reply as redis-cli prints it on a pipe, without the final
// newline: what $(...) would capture.
func RawText(r resp.Reply) string { return strings.TrimSuffix(resp.FormatRaw(r), "\n") }
