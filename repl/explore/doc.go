// Package explore runs a lab script once per schedule and reports what
// happened across all of them: `locklab explore FILE.lab`.
//
// Each schedule runs on a fresh embedded Redis that listens on no port
// (in-process pipes) and whose time is a clock.Virtual. A scheduler
// (sched) is the run's session.Gate, its clock and its shell's Tracker:
// it counts the goroutines doing local work, and only when none is does
// it let one thing happen: a job start (by session name), a sleeper whose
// time has come wake up, or one waiting session's command go. Which
// command goes is the choice; when no command can go, virtual time moves
// to the next sleeper's deadline. A step is one command as the server
// runs it (the gate is outermost, so a probed command's MULTI is one
// step). Events are stamped with virtual time plus a nanosecond per step,
// so that steps of one instant keep the server's order.
//
// A read-only command that would repeat its session's last step, with
// no other step and no time passed since, waits until something else has
// happened: a busy poll costs a step per change, and when only such
// polls are left, time moves to the next sleeper, or the schedule is
// stuck. A schedule is stopped as stuck (StuckError, naming the step and
// what waits) when nothing moved for stallAfter of wall-clock time (a
// blocking command, say), or past maxSteps. Scripts that need real
// servers, or run load, are refused before anything runs (RefusedError).
//
// The search is depth first over the choice points, each schedule a
// replayable choice list. By default it is reduced with sleep sets
// (reduce.go): a command that commutes with every step since it was
// passed over at a choice point (commute.go: no key in common, or both
// only read) is not chosen again, since another schedule runs it first;
// a schedule whose every next command sleeps is cut as equivalent.
// Options choose raw search, a preemption bound (CHESS) or random
// sampling (random.go: PCT). Several workers run schedules at once
// (parallel.go); their results are merged in depth-first order, so a
// bounded search counts the same schedules as one worker would. A
// schedule fails when its verdict names a bug or the script fails (or as
// --property says); the shortest failing one (a bug first, then fewest
// steps, then fewest preemptions) is run again from its choice list and
// printed as an ordinary annotated transcript, and can be saved as a lab
// script whose `schedule` line forces its order on any server (package
// order).
package explore
