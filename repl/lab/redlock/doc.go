// Package redlock is lesson 5's lab: N independent Redis nodes (A, B, C
// ...), and the Redlock algorithm of the Redis docs run on them step by
// step, with every node's answer printed.
//
// A Lab holds the nodes and what they granted: one set of nodes at a
// time (a server.Slot), so a second `redlock up`, at once or later, is
// refused until `redlock down`. Its nodes are embedded servers, each on
// a clock of its own, or (Real) redis-server processes with no
// persistence, in a temporary folder the process owns, stopped on Down
// (also while they start) and, through server.StopAllSlots, by a signal
// that ends locklab. Its faults are exact: a clock jump moves one
// embedded node's time (and so its TTLs) and nothing else (on a real
// node it is refused: its clock is the host's); a crash drops the node
// and its data; a restart brings it back empty, after a delay if asked.
// A pause stops a whole session, as a GC pause stops a process.
//
// A run whose sessions take turns at a gate (explore's scheduler, or a
// saved schedule's order: session.Set.Gate) gets a gated lab (UpAt): its
// embedded nodes listen on no port, each on an offset over the run's
// clock (explore's virtual time), and every command to a node takes a
// turn at the gate as a step of the sending session on that node
// ("alice@A SET ...", session.TurnOn), sent one node after another from
// that session's own goroutine (send.go), where a normal run sends to
// all nodes at once; a crash, restart or clock jump is a step on its node,
// and a delayed restart needs no goroutine of the lab's own. What the lab
// times it reads on the sessions' event clock (explore's virtual time
// plus a nanosecond a step), so the checker reads the same records either
// way.
//
// It judges nothing itself: every attempt and release, with each node's
// answer (Attempt.Quorum), and every fault go to the run's record, whose
// checker (repl/lab/quorum) decides TWO HOLDERS and OVERLAP for both the
// run's verdict and `redlock verdict`.
//
// Run is the lab language's words (redlock, clock, crash, restart,
// pause) over a narrow Env; package words wires them into its table.
package redlock
