// Package sandbox is locklab's second wall around the host's files:
// once set-up is done (the target opened, the history file made), the
// process restricts itself with Landlock, Linux's unprivileged sandbox,
// to the paths this run needs, and the redis-server processes it starts
// later inherit the same rules. The first wall is the lab language's
// view of files (repl/lang/labfs), which refuses every host route by
// construction; this one holds in the kernel if a route is ever missed.
//
// Only file access is restricted, never the network: users connect to
// any Redis host. The policy is one literal table (policy.go) plus the
// rows a run adds: its start folder, the scripts and output files named
// on the command line, the REPL's history file, the temporary folder
// and the redis-server program (these two not for a run that starts no
// server: InStartDir). A path that does not exist is skipped.
//
// Landlock applies to the whole process, for ever, and to its children:
// Restrict is called once, by locklab as its own process, never by a
// test that goes on to run other tests. It is best effort: on a kernel
// without Landlock, or on another system (sandbox_other.go), Restrict
// enforces nothing and its Status says why. LOCKLAB_NO_LANDLOCK=1 turns
// it off.
package sandbox
