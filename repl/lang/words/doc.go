// Package words is the one table of every word the lab language knows,
// and the one place that decides what a command word means.
//
// A word is a Redis command (sent as typed), a redis-cli or docker
// emulation, a lab word (sleep, help, expect, timeline, load, cluster
// ...), a lesson macro (book, book-locked ...), `@NAME` (another
// session), a script path, redis-cli's `N CMD` repeat, or one of the
// shell's own (echo, wait, set -e ...). Classify says which; dispatch,
// the precheck of a script, the batching of piped commands, the naming
// of background jobs, help and completion all ask it, and nothing else
// decides.
//
// Each property of a word lives on its entry: its usage, whether it
// names a bidder, whether explore can run it (Unexplorable, which both
// explore's reading of a script and its runs ask). The failover lab's
// cluster is one at a time per shell (State), as Redlock's nodes are.
//
// The table is a literal. A word's Run returns an error (see Error) and
// never prints its own failure: the shell prints it and maps it to an
// exit status, in one place.
package words
