// Package order makes a run's commands go out in a given order of
// sessions, on any server: a schedule `locklab explore --save` found,
// forced on a real redis-server. It is a session.Gate: each command waits
// until the schedule's next step is its session's and the step before it
// has its reply; past the schedule's end, or once a step whose turn it is
// does not come within the wait (said on stderr), commands go freely.
package order
