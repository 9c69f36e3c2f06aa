// Package macros holds locklab's macros: the lesson's scenarios as commands
// (book, book-locked, blind-unlock, eval-release). One table gives each
// macro's arguments (a flags.Spec: its usage, help, completion and the
// check of a script's calls follow) and code.
//
// Macros do nothing behind the user's back: every Redis command they send
// goes through Env, which sends it in a session, records its event (so the
// annotator sees it) and prints what the lesson would print. The one
// exception only reads: on a server that is not the lab's own, a macro
// that deletes its key at its start (blind-unlock) first reads it through
// Env.Inspect, on a connection outside the sessions, and refuses when it
// holds data the lab did not write (repl/lab/keyguard).
//
// Numbers that make no sense are refused by the spec, in one line: a
// count of seats is 1 or more, a TTL 1ms or more.
package macros
