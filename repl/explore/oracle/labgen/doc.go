// Package labgen makes random small labs for the oracle (package oracle)
// to explore: 2 or 3 sessions, each a few lines drawn from a configurable
// set of operations on two lock keys and two slots (SET with and without
// NX/XX/GET, DEL, UNLINK, GETDEL, GETEX, EXPIRE, PEXPIRE, PERSIST, RENAME,
// FLUSHDB, the lab's compare-and-delete and compare-and-PEXPIRE scripts,
// the macros, sleeps past and short of the TTLs, LLEN and RPUSH on the
// slots). The same seed and Config give the same lab.
//
// Shrink makes a lab that fails a test smaller while it still fails: it
// drops sessions, then lines, then shortens sleeps and durations, and
// prints as a runnable .lab (Text).
package labgen
