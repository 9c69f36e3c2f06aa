// Package sched runs one schedule of a lab script: it is the run's
// session.Gate, its clock (virtual time) and its shell's jobs.Tracker. It
// counts the goroutines doing local work, and only when none is does it
// let one thing happen: a job start (by session name), a sleeper whose
// time has come wake up, or one waiting session's command go. Which
// command goes is the choice, taken from a Plan: a choice list to replay,
// then the first option (or a random search's priorities, PCT). When no
// command can go, virtual time moves to the next sleeper's deadline.
//
// With Plan.Reduce it keeps sleep sets (package commute says which
// commands commute): a command passed over at a choice point sleeps while
// it commutes with every step since, and a schedule whose every next
// command sleeps is cut (ErrEquivalent). A preemption bound keeps the
// session that went last going once the bound is reached. A read-only
// command that would only repeat its session's last step waits until
// something else happened. A schedule that cannot go on is stopped with
// a StuckError. Package explore runs one Sched per schedule.
package sched
