// Package sched runs one schedule of a lab script: it is the run's
// session.Gate, its clock (virtual time) and its shell's jobs.Tracker. It
// counts the goroutines doing local work, and only when none is does it
// let one thing happen: a job start (by session name), a sleeper whose
// time has come wake up, or one waiting session's command go. When no
// command can go, virtual time moves to the next sleeper's deadline. A
// read-only command that would only repeat its session's last step
// waits until something else happened. A schedule that cannot go on is
// stopped with a StuckError. Package explore runs one Sched per schedule.
//
// Which command goes is the choice, and a Strategy's: the scheduler
// replays the Plan's prefix of choices, and at every turn asks the
// schedule's Chooser which of the waiting commands may go (Enabled) and,
// past the prefix, which goes (Pick), and tells it what happened (Went,
// Moved). The search (package explore) walks the tree of choice points
// depth first, each schedule a prefix and the choices its chooser made
// after it, or, for a Sampler, draws Samples() schedules. One file each:
//
//	dfs.go      DFS      every order (--no-reduce)
//	reduce.go   Reduce   sleep sets: one order per class of commuting steps (the default)
//	preempt.go  Preempt  at most K preemptions (--preemptions K, CHESS)
//	pct.go      PCT      N samples by random priorities (--random N, PCT)
package sched
