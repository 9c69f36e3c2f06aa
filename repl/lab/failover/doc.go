// Package failover starts and owns a primary and a replica, real
// redis-server child processes on free loopback ports, with a small
// in-process TCP proxy in the replication link, so a lab can lose a lock
// on failover deterministically: cut the link (the primary's bytes are
// read and discarded while the connection stays open), take the lock on
// the primary, crash the primary, promote the replica, and see the lock
// gone there.
//
// Why a proxy: delaying the replica (SIGSTOP, DEBUG SLEEP) or killing the
// primary at once never loses the key on loopback, because the bytes wait
// in kernel buffers and are applied later. Only bytes discarded in user
// space never reach the replica. The pitfalls this package avoids:
//
//   - the sync barrier: Up returns only after the replica finished its
//     initial sync and a canary write was acknowledged by WAIT 1 on the
//     connection that wrote it, then read back on the replica; otherwise
//     the replica is "missing" the lock simply because it is empty;
//   - the crash is SHUTDOWN NOSAVE NOW (SIGKILL if refused), never plain
//     SHUTDOWN or SIGTERM, which wait up to 10 s for lagging replicas and
//     so deliver the write;
//   - a cut keeps the replica's connection open, and new connections are
//     blackholed too: a closed link makes the replica reconnect and PSYNC
//     the backlog, which replays the lock;
//   - repl-timeout is raised to an hour, so a long cut does not end in a
//     reconnect either.
//
// For servers locklab does not own (docker compose), Attach makes the same
// Topology from two addresses, without a proxy, and PauseCut and PauseHeal
// are the cut: CLIENT PAUSE WRITE on the replica postpones the replicated
// SET, and when the link drops the replica discards what it had not
// applied. That relies on Redis internals (measured on 7.0.15; the 7.2
// source reportedly has the same code), so check it by the offsets Status (or
// Observe) reports.
//
// Every process is stopped by PID on Close, and on Linux by the kernel
// (Pdeathsig) if locklab dies first. Up stops what it started when its context is
// cancelled midway. How many topologies a lab may have at once is the
// lab's to decide (package words keeps one, in a server.Slot).
package failover
