// Package explore runs a lab script once per schedule and reports what
// happened across all of them: `locklab explore FILE.lab`.
//
// Each schedule runs on a fresh embedded Redis that listens on no port
// (in-process pipes) and whose time is a clock.Virtual, under a
// scheduler (package sched) that is the run's gate, clock and job
// tracker and decides which waiting command goes at each choice point.
// A step is one command as the server runs it (the gate is outermost, so
// a probed command's MULTI is one step). Events are stamped with virtual
// time plus a nanosecond per step, so that steps of one instant keep the
// server's order. Scripts that need real servers, or run load, are
// refused before anything runs (RefusedError): a call is refused when
// its word's table entry says so (words.Word.ExploreRefusal: the word, or
// this call of it, `redlock up --real`), as the script names it and
// again when a run reaches it, so a name or words known only at run time
// (c=cluster; $c up) stop the search before the word runs. Redlock's
// embedded nodes run on the schedule's clock, each command to a node a
// step at the scheduler (see package redlock's doc, and sched.TurnOn);
// they are the shell's, closed with it, never kept for the next schedule.
//
// The search is depth first over the choice points, each schedule a
// replayable choice list. By default it is reduced with sleep sets (see
// package sched; package commute says what commutes): a schedule whose
// every next command is covered by another schedule is cut as
// equivalent. Options choose another sched.Strategy: raw search, a
// preemption bound (CHESS), random sampling (PCT, or random walks);
// Options.strategy is the one place that reads them, and package sched's
// doc says how to add one. Several workers run schedules at once
// (parallel.go); their results are counted in depth-first order, so a
// bounded search counts the same schedules as one worker would. Each is
// counted as soon as no schedule still to come can come before it, and
// let go: a search keeps its counts and the shortest failing schedule
// so far (and, for --json, every failing schedule's steps), so its
// memory does not grow with the number of schedules it runs. A
// schedule fails when its verdict names a bug or the script fails (or as
// --property says); the shortest failing one (a bug first, then fewest
// steps, then fewest preemptions) is run again from its choice list and
// printed as an ordinary annotated transcript, and can be saved as a lab
// script whose `schedule` line forces its order on any server (package
// order).
//
// With Options.Faults (--faults K, faults.go), each schedule may also
// choose up to K faults between its steps, of the kinds
// Options.FaultKinds names: time running on to the next key's expiry (a
// pause), the server or a Redlock node restarting empty, a write's reply
// lost, a node's clock jumping. The search counts them as it counts
// orders, the shortest failing schedule has the fewest faults, and a
// saved schedule writes each as a step of its line (package order).
//
// With Options.Oracle (--oracle), each schedule's scheduler runs package
// oracle between its steps (sched.Between): what the checker believes the
// server holds, against what the embedded server really holds, read
// directly. The first difference stops the search (an *oracle.Divergence).
package explore
