// Package server starts the Redis servers locklab talks to when the user
// names none: the embedded, in-process miniredis that `locklab` opens by
// default, and real redis-server child processes on free loopback ports,
// which the tests (and, later, multi-node labs) use. The embedded server's
// TTLs follow a clock.Clock: the wall clock, or a virtual one that a
// driver advances.
//
// Everything started here is owned by the caller and must be closed. A
// lab keeps the servers its words start (a cluster, Redlock nodes) in a
// Slot: one set at a time, stopped by its down word, at the end of the
// run, and by a signal that ends locklab (StopAllSlots).
package server
