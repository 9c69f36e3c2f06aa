// Package check reads the event log of a lab run and says, in the
// lesson's words, what happened to its locks and slots: a lock acquired or
// not (and who holds it), a holder whose TTL ran out while it was still
// working, a WRONG-OWNER DEL, a compare-and-delete that kept a successor's
// lock, a fenced write the resource accepted or refused (STALE WRITE
// REFUSED), and at the end a verdict per slot and lock.
//
// Everything it says is derived from what the server answered: each event
// carries the reply and, for lock and slot keys, the key's value and PTTL
// (a slot's length) read in the same MULTI as the command (see
// repl/lab/probe). It never guesses from client-side timers. It is pure:
// no I/O, no Redis, no terminal.
//
// # One rule
//
// Whatever the command, what it did to each key is judged from the key
// before and after (state.go): a value appearing is an acquisition by the
// sender; a live lock removed, replaced or cut short by another session
// is a WRONG-OWNER DEL or a TAKEOVER, naming the command and how long its
// holder still had; the old holder believes on until it learns otherwise,
// so a session taking the lock meanwhile is an OVERLAP. SET ... NX, DEL
// and a compare-and-delete script are worded in the lesson's terms by
// handlers of their own. BelievedLocks and BelievedSlots say what the
// annotator believes the server holds, for a test oracle to compare with
// the server.
//
// # Values
//
// Keys, tokens, session names and bookings are whatever the server or a
// client held, and the notes and verdicts go to a terminal: every one of
// them enters the text through Say, which shows it as it is when it is
// printable and quoted as redis-cli quotes it otherwise (a token
// "\x1b]0;pwned\a" cannot retitle the window, nor "x\nverdict: ALL
// CLEAR" print a verdict line of its own).
//
// # Scripts
//
// A script run on lock keys is judged by what it did to them (the key
// before and after): a release, a kept lock, an extension. The one script
// whose meaning the keys do not show, the resource's fencing check, is
// known by its text or SHA1 (scripts.FencedBook): its reply says whether
// the resource refused the writer's token, and the newest token it had
// accepted is its second key as the probe read it.
//
// # Overlaps
//
// A session believes it holds a lock from the OK that granted it to the
// release it sends (whatever the release finds), or, if it never releases,
// to what it last saw: the TTL it was given running out, or its taking the
// same lock again. An overlap is a maximal period of some length in which
// two or more sessions believed they held the same lock; the verdict
// counts and lists them (Overlaps), naming every session in each, and the
// timeline draws the same periods from the same holdings.
//
// # Verdicts
//
// The verdict lists the facts first: each slot's bookings against its
// seats (DOUBLE BOOKING for one seat, OVERBOOKING for more, the bidders in
// the order the server ran their pushes), then each lock's findings. Then
// it judges, only on evidence (see Verdict): NO VERDICT when a command of
// the run failed (its caller counts them), when a lock key or slot was
// touched but nothing was acquired or booked, or when nothing it did could
// have gone wrong (one session took a lock and kept it, say); otherwise
// all clear, naming only what the run checked (no double booking when a
// slot was booked, no overlapping holders when two sessions wanted a lock,
// no wrong-owner delete when a lock was released). A run that touched no
// lock and no slot gets no verdict line.
package check
