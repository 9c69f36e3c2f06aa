// Package order makes a run's commands go out in a given order of
// sessions, on any server: a schedule `locklab explore --save` found,
// forced on a real redis-server. It is a session.Gate: each command waits
// until the schedule's next step is its session's and the step before it
// has its reply; past the schedule's end, or once no step came within the
// wait (said on stderr), commands go freely. A poll (package poll: the same command again, for the same
// answer, one that changed nothing) spends no step: the session whose
// turn it is polls until the server's answer changes, so the order waits
// for what the server shows, not for a count of retries.
package order
