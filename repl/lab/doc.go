// Package lab is the lesson's wing of locklab, as the language sees it:
// Words gives the program's set-up every word of the lab (seats, expect,
// verdict, timeline, load, the failover lab's cluster/link/crash/promote,
// Redlock's redlock/clock/restart/pause, make and the lesson's macros),
// and each keeps what it must between lines in a part of the shell
// (words.Part): the cluster, Redlock's nodes, the scripts loaded on the
// server. The run's record and printer are the shell's, reached the same
// way (record.Part, reply.Part).
//
// Its packages are the lesson's parts: macros, check (the notes and
// verdicts), probe, record, reply, timeline, load, failover, redlock,
// redlockload, quorum, keyguard and lockargs.
package lab
