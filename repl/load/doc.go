// Package load is locklab's load mode: N workers, each on its own
// connection, do M acquire/work/release cycles on one lock and one
// protected resource (or on L locks, each with its own resource, shared
// out among the workers), and every outcome is counted from the server's
// answers.
//
// The four modes show the lesson step by step:
//
//   - break releases with a plain DEL: a worker whose lock expired while it
//     worked deletes its successor's lock (wrong-owner deletes).
//   - fix releases with Lua compare-and-delete: no wrong-owner delete, but
//     work that outlasts the TTL still overlaps the next holder's critical
//     section, and read-modify-write updates are lost.
//   - extend keeps the lock alive with a compare-and-PEXPIRE watchdog while
//     working: no overlap, until a worker is paused (--pause) longer than
//     the TTL, watchdog included, as in a stop-the-world GC pause.
//   - fenced takes a fencing token (INCR) with the lock, and the protected
//     write is a Lua script that refuses a token older than the newest it
//     has seen: sections may overlap, but no stale write is accepted.
//
// The keys all derive from the lock key K (default lock:load): K is the
// lock, K:resource the protected counter, K:inside how many workers are in
// their critical section (an INCR on entry that answers more than 1 is an
// overlap), K:fence the fencing-token counter and K:fence:last the newest
// token the resource has accepted. Run deletes them before it starts.
// With --locks L above 1, lock i is K:i (1..L) and its keys derive from it.
//
// A cycle's commands that follow one another with no decision between
// them go in one pipeline. In break and fix mode that is three round
// trips: acquire (SET NX PX); enter and read (INCR K:inside, GET
// K:resource); write, leave and release (SET K:resource, DECR K:inside,
// the release script). Fenced mode takes a token where the others read
// (INCR K:inside, INCR K:fence), and its write is a script that must
// answer before the worker leaves, so it is a round trip of its own: four
// in all. Extend mode adds the watchdog's. The server runs a pipeline's
// commands in the order sent, as it would one by one; only the waiting
// for each answer is saved.
//
// Workers and iterations count from 1: worker 3's seventh cycle uses the
// token w3-i7, as in the seeds' lab. The dial function is called once per
// worker (1..N) and once with 0 for the control connection that prepares
// the keys and reads the result.
package load
