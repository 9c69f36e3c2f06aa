// Package redlock is lesson 5's lab: N independent embedded Redis nodes
// (A, B, C ...), each on a clock of its own, and the Redlock algorithm of
// the Redis docs run on them step by step, with every node's answer
// printed.
//
// A Lab holds the nodes and what they granted. Its faults are exact: a
// clock jump moves one node's time (and so its TTLs) and nothing else; a
// crash drops the node and its data; a restart brings it back empty,
// after a delay if asked. Its verdict (TWO HOLDERS, or all clear) comes
// only from the answers the nodes gave: two acquisitions by different
// tokens that each got a majority of OKs, valid at overlapping times.
//
// Run is the lab language's words (redlock, clock, crash, restart) over a
// narrow Env; package words wires them into its table.
package redlock
