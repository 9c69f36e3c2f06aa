// Package redlock is lesson 5's lab: N independent Redis nodes (A, B, C
// ...), and the Redlock algorithm of the Redis docs run on them step by
// step, with every node's answer printed.
//
// A Lab holds the nodes and what they granted. Its nodes are embedded
// servers, each on a clock of its own, or (Real) redis-server processes
// with no persistence, in a temporary folder the process owns, stopped
// on Down and, through StopAll, by a signal that ends locklab. Its faults
// are exact: a clock jump moves one embedded node's time (and so its
// TTLs) and nothing else (on a real node it is refused: its clock is the
// host's); a crash drops the node and its data; a restart brings it back
// empty, after a delay if asked. A pause stops a whole session, as a GC
// pause stops a process.
//
// Its verdict comes only from what the nodes answered and what the
// sessions sent: TWO HOLDERS for two acquisitions by different tokens
// that each got a majority of OKs, valid at overlapping times; OVERLAP
// for a holder that sent a command past its validity, unreleased, while
// another held the lock.
//
// Run is the lab language's words (redlock, clock, crash, restart,
// pause) over a narrow Env; package words wires them into its table.
package redlock
