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
// It is the language's kernel and knows no feature: it has its own words
// (redis-cli, docker, sleep, run, help, clear) and the program installs
// the rest as a literal list (Install: lab.Words(), explore.Words()).
// Each property of a word lives on its entry: its usage, whether it
// names a bidder, whether explore can run it (Unexplorable, or
// UnexplorableCall for some of its calls: ExploreRefusal, which both
// explore's reading of a script and its runs ask), its pre-run Check,
// its Effects on the servers the lab starts (what the precheck of a
// whole script follows) and its long Help. `WORD --help` prints that help
// (what `help WORD` prints) for every word of the table, answered here
// once, before the word's Run, Check or Effects could see it. What a feature keeps between lines lives in the shell's
// Parts (see Part); what watches the runs is an Observer.
//
// The table is a literal list. A word's Run returns an error (see Error) and
// never prints its own failure: the shell prints it and maps it to an
// exit status, in one place.
package words
