// Package stream runs the commands after which a Redis server keeps
// sending on the connection: SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE and
// MONITOR. As redis-cli 7.0 does, it prints "Reading messages... (press
// Ctrl-C to quit)" before the messages of the first three (in redis-cli's
// terminal format only), then every reply as it arrives: the command's
// own, then each message, in the format of any reply. That holds wherever
// a command runs: the REPL, -c, a script, one command given as arguments.
// Each message is an event of the session, recorded and printed as a
// reply is.
//
// A stream ends on Ctrl-C (its context), when the server closes the
// connection, or when the server refuses the command (an error reply).
// A stream in a background job (`@sub SUBSCRIBE ch &`) also ends when the
// main lines of its run are done (see Scope and End), after the messages
// the server sent before (a PING marks the point): a run waits for its
// jobs at its end, and a subscriber would never end on its own. (The
// embedded Redis writes a message from a goroutine of its own after
// PUBLISH has answered: there, one published just before the end may not
// show.) At the prompt, the main lines are done when the REPL ends: a
// background subscriber streams until then, or until Ctrl-C stops a
// `wait`, or until `kill %1` cancels its job's context (see repl/lang/jobs).
// The session's connection is
// closed after a stream and dialled anew by its next command, with the
// same database and name, so that no message is ever read as the reply
// to a command.
package stream
