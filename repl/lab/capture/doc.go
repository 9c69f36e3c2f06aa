// Package capture turns a REPL session into a lab: `record FILE.lab`
// writes every entry typed from then on, as typed, each followed by an
// `expect` line for what it showed, and `record stop` ends the file with
// the run's verdict. The file runs unchanged with `locklab FILE.lab`, on
// the embedded Redis and on redis-server, and fails when the behaviour it
// recorded changes.
//
// # What each reply becomes (Expect)
//
// An entry gets an expectation when it showed exactly one reply in its
// own session (main, or NAME for `@NAME ...`):
//
//   - A status, an integer, or nil is expected as it was (`expect reply
//     OK`, `expect reply 2`, an empty reply for nil), unless it says how
//     much time is left: a positive TTL or PTTL is expected to be positive.
//   - A string is expected as it was when the run itself sent that value
//     before (a token, a value SET earlier); any other (a token the server
//     made, a port, server information) by what it is: not nil.
//   - Replies of the server, connection and cluster groups (INFO, TIME,
//     CLIENT ..., CONFIG ...) differ between servers and runs: no
//     expectation, a comment says so; PING's PONG and OK are kept.
//   - Arrays are expected as they were when their order is the data's
//     (LRANGE, MGET, a sorted set's range); a set's or a hash's (SMEMBERS,
//     HGETALL, KEYS) comes in the server's own order, which the embedded
//     Redis and redis-server do not share: no expectation.
//   - An error reply's text differs between the embedded Redis and
//     redis-server: a comment shows it, no expectation.
//
// Entries that start background jobs are written as typed; their
// replies come while later entries run, so they get no expectation of
// their own: the verdict at the end covers what the jobs did.
//
// # Secrets
//
// An entry that sent a secret (AUTH, HELLO ... AUTH, a password in any
// spelling: what reached the server decides, as for the history) is left
// out, with a comment that says so. An entry that started jobs is held
// until its jobs have ended, since they may send one yet.
package capture
