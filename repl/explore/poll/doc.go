// Package poll tells a poll's repeat from a step: a session that sends
// the same command again and gets the same answer again, an answer that
// says the command changed nothing (a read, or a write the server
// refused with a null, as SET ... NX does while the lock is held). A
// retry loop, a macro's --wait and a shell `until` loop reading a key are
// polls; what makes one is what happened, the words and the reply, not
// which command or macro sent them. The explore scheduler (package sched)
// takes a poll's repeats into one step of a schedule, and a saved
// schedule's gate (package order) lets them go without spending a step,
// so a saved order waits for what the server shows, never for a count of
// retries.
package poll
