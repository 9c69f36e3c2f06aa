// Package probe is the lab's side of a command on a lock or slot: it
// decides which keys are locks (taken with SET ... NX, or named lock:...)
// and slots (counted with LLEN, or named ...:bookings), each in its
// database, and sends a command that names one so that the annotator can
// tell the truth. Which keys a command names, and whether it writes, come
// from the command table (commands.Keys, commands.Writes), not from a
// list of names; a write that names no key but changes the database
// (FLUSHDB, FLUSHALL, SWAPDB) reads every key the run knows. Inside one
// MULTI ... EXEC, the keys' values and PTTLs (a slot's LLEN) are read
// just before and just after the command, atomically with it; the reply
// shown is still the command's own.
//
// Where that would change what the command means, it is not done: a
// command queued in the user's own MULTI, or sent while it WATCHes, goes
// as it is, and the EXEC is followed by a read of the keys its queued
// commands named (States.Loose: not in the same step); a blocking command
// goes as it is (in a MULTI it would not block) and its keys are read
// just after it. Nothing is read on a connection whose replies are off.
//
// A Prober is a session.Middleware: install it on a run's sessions with
// sessions.Use(probe.New().Middleware()), and read its events with
// CheckEvent, which turns them into what the annotator (repl/lab/check)
// reads.
//
// # Server order
//
// Replies of racing sessions reach locklab in any order: bob's failed SET
// NX may arrive before alice's winning one, which the server ran first.
// Notes, verdicts and the timeline follow the order in which the server
// ran the commands instead, read from the server itself:
//
//   - The probe's transaction also sends TIME, right after the command:
//     the server's clock (microseconds) when it ran it (States.Served).
//     Redis runs one command at a time and a transaction without anything
//     in between, so of two transactions on one server, the one with the
//     earlier TIME ran first: that is a fact the server states, not a
//     guess from when replies came. The embedded Redis holds its lock for
//     a whole EXEC and answers TIME in MULTI too. Two servers' clocks are
//     never compared.
//   - Within the same microsecond, a transaction that read the token
//     another's SET ... NX wrote (the loser of a race reads the winner's)
//     ran after it. Tokens are taken to be unique, as the lesson teaches.
//     Any other tie (and every tie on a virtual clock, which stands
//     still between steps) is left in the order the events arrived.
//   - Each probed command is a Flight from just before it is sent. An
//     event waits for its turn (Flight.Wait) only for the flights to the
//     same server still in flight when its reply came: it never waits for
//     a command sent after, which the server ran after. It waits until
//     each of them is either known to have run later, or taken by the
//     recorder (Flight.Take, which record.Recorder.Observe calls before it
//     annotates), or ended without a reply: a connection error, Ctrl-C
//     (the command may have run, but no event will say so) or a
//     transaction that did not run. A session that sends again without
//     its last answered event taken (its reply was not annotated) gives
//     it up, so nothing waits for an event that will never come.
//   - Commands that are not probed carry no server time: they are
//     annotated in the order they arrive, and nothing waits for them.
//
// This tracks in flight only the commands that will carry a server time,
// from the place that sees every way a command ends, rather than every
// command the shell announces (record.Recorder.Sending): a waiting event can then
// be released by any ending, and a probed transaction never blocks on the
// server (a blocking command in MULTI does not block), so the wait is as
// long as the replies take.
//
// Take also says by when the server had run the command: its own reply,
// or the sooner reply of a command the server ran after it. The recorder
// uses that as the event's end, so the timeline, which orders by time,
// draws the racing commands in the server's order with times that are
// still true.
package probe
