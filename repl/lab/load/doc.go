// Package load is locklab's load mode: N workers, each on its own
// connection, do M acquire/work/release cycles on one lock and one
// protected resource (or on L locks, each with its own resource, shared
// out among the workers), and every outcome is counted from the server's
// answers.
//
// Every mode does the same read-modify-write of the resource, a counter:
// inside the section a GET reads it, and at the end of the work the
// worker writes what it read plus one. Only the lock around it changes,
// so the modes compare like with like:
//
//   - break releases with a plain DEL: a worker whose lock expired while it
//     worked deletes its successor's lock (wrong-owner deletes). It
//     prevents nothing.
//   - fix releases with Lua compare-and-delete: it prevents deleting
//     another worker's lock, not the overlap of work that outlasts the TTL
//     with the next holder's section, nor the lost updates that follow.
//   - extend keeps the lock alive with a compare-and-PEXPIRE watchdog while
//     working: it prevents expiry while the holder works, not a pause
//     (--pause) longer than the TTL, watchdog included, as in a
//     stop-the-world GC pause.
//   - fenced takes a fencing token (INCR) in the same script as the lock,
//     so tokens go up in the order the lock was granted, and its write
//     carries the token: a Lua script on the resource refuses a token
//     older than the newest it has accepted, and otherwise SETs the value
//     the worker computed. It prevents stale writes (a holder whose lock
//     was taken over writing after its successor), not lost updates from
//     holders that overlap and write in token order: tokens 5 and 6 both
//     read 10, 5 writes 11, then 6 writes 11 too, and both are accepted.
//
// The counts obey one identity. Each write answers the value it replaced
// (SET ... GET; the fenced script answers it too): when that is above the
// value its holder read, the write wiped out that many updates it never
// saw, its lost updates. The accepted writes' increments telescope, so
// for every run whose round trips were all answered:
//
//	resource + stale writes refused + lost updates == acquisitions
//
// with the resource from the final read and the two others from the
// writes' answers. A run in which it does not hold (another client wrote
// the resource) gets the verdict UNKNOWN, as does a run stopped by an
// error or whose final read failed: then the resource is shown as ?, never
// as a number. A round trip that got no answer (cut by a stop, or a
// connection lost) may or may not have run; the table says how many.
//
// The keys all derive from the lock key K (default lock:load): K is the
// lock, K:resource the protected counter, K:inside how many workers are in
// their critical section (an INCR on entry that answers more than 1 is an
// overlap), K:fence the fencing-token counter, K:fence:last the newest
// token the resource has accepted and K:waiting the mark a waiter sets
// for its lock's release to be announced (--retry notify). With --locks L above 1, lock i is K:i
// (1..L) and its keys derive from it. Run deletes them before it starts
// and again at its end, whatever happened (an error, Ctrl-C, a signal
// that ends locklab: StopAll), best effort: on a server gone the deletion
// fails and the table says so, and a round trip a stop cut may still land
// after it (its lock then expires with its TTL). On any server but the
// lab's own (Config.OwnServer, the embedded one) it first reads them all
// in one script and, when one holds data the lab did not write, refuses
// to start and deletes nothing (repl/lab/keyguard): a lab key is absent, a
// lock holding a worker's token (w3-i7) with a TTL, or a counter (a whole
// number, no TTL), as a run killed half-way leaves them.
//
// A cycle's commands that follow one another with no decision between
// them go in one pipeline. In break and fix mode that is six commands in
// three round trips: acquire (SET NX PX); enter and read (INCR K:inside,
// GET K:resource); write, leave and release (SET K:resource ... GET, DECR
// K:inside, the release script). Fenced mode's six commands take four:
// its acquisition is a script (SET NX PX, then INCR K:fence), and so is
// its write, which must answer before the worker leaves (a NOSCRIPT
// answer is retried with EVAL before anything after it runs), so DECR
// and the release go in a round trip of their own. Extend mode adds the
// watchdog's. The server runs a pipeline's commands in the order sent, as
// it would one by one; only the waiting for each answer is saved.
//
// A worker whose SET NX finds the lock held tries again as --retry says
// (Config.Retry, retry.go), and the table's heading and the JSON say
// which policy ran:
//
//   - fixed tries again in 1-1.5ms, however many wait: the retry storm,
//     kept to show it. With many workers the attempts that fail flood the
//     server, and the holders' own commands wait behind them.
//   - backoff waits at random below a ceiling that doubles at each failed
//     attempt, from 1ms up to 64ms (package backoff: full jitter).
//   - notify (the default) waits until the holder's release is announced.
//     A worker whose attempt failed sets the waiting mark (K:waiting) in
//     the same round trip as its next attempt, and if that fails too it
//     waits; a release that finds the mark set takes it and PUBLISHes on
//     the lock's channel (K:released, a channel, not a key), in its
//     script. The run's control connection, subscribed to the channels,
//     passes each announcement to one waiting worker, which tries again
//     (setting the mark again): one subscription and one waiting room per
//     lock for the whole run, as Redisson keeps one per lock per process.
//     A lock nobody waits for costs no message. A lock that expires is not
//     announced: a waiter tries again when the PTTL the holder had left
//     (read in its attempt's round trip) runs out. The embedded Redis and
//     redis-server both have pub/sub; a server that refuses SUBSCRIBE (an
//     ACL) refuses the run before it starts.
//
// A worker that has just released tries for the lock again at once, with
// no wait, under every policy: a woken waiter may find it taken again.
//
// Workers and iterations count from 1: worker 3's seventh cycle uses the
// token w3-i7, as in the seeds' lab. The dial function is called once per
// worker (1..N) and once with 0 for the control connection that checks
// and prepares the keys, reads the result and deletes the keys.
//
// The word load (repl/lang/words) exits 0 when every verdict is OK, 3 when
// one is FAIL (the server's answers showed a lock bug) and 1 when a run
// could not be judged (UNKNOWN, or it did not start), so that a script
// can expect break mode's FAIL without taking a server gone for it.
package load
