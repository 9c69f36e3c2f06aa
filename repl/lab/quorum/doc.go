// Package quorum judges a Redlock run (lesson 5) from what its nodes
// answered: every command a Redlock client sent to a node, and the reply
// (or why there was none), is a Step; an acquisition is an Attempt (its
// SETs, its releases on failure, and the client's conclusion); a release
// is a Release. The lab's own faults (a clock jump, a crash, the nodes
// stopped) are Faults: they are facts of the run, not guesses.
//
// A Checker reads them in the order they happened and says:
//
//   - TWO HOLDERS: two acquisitions of the same key on the same nodes (one
//     `redlock up`), by different tokens, each with a majority of OKs in
//     the nodes' answers, whose validity windows overlapped. A client that
//     says it holds the lock without a majority of OKs in the answers is
//     missing evidence, and the verdict says so rather than count it.
//   - OVERLAP: a holder that sent a command (on the lab's own Redis) after
//     its validity ended, not having released, while another holder's
//     grant on the key was valid.
//
// It also tells, node by node, who held a key there and until when (Holds):
// from the node's OK to its release (the compare-and-delete answered 1
// there), its crash, the nodes going down, or its expiry on the node's own
// clock (the TTL the node was given, counted from its reply, moved by every
// clock jump of that node). The timeline draws these; the run's verdict
// (repl/lab/check) and `redlock verdict` both read Findings.
//
// It is pure: no I/O, no clock of its own. A Checker is not safe for
// concurrent use; its caller (repl/lab/record) holds a lock around it.
package quorum
