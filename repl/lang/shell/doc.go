// Package shell runs the lab language: every line typed, pasted, piped
// or read from a .lab or .sh file goes through Run, the one way in.
//
// Run reads a Source (the REPL's terminal, a pipe, -c LINE, a command
// given as arguments, a script file, `run FILE`) one line at a time and
// hands it to mvdan.cc/sh's parser, which parses each entry once, as it
// is read, and says when an entry needs more lines (the REPL's `> `
// prompt). A pasted prompt (`$ `, `127.0.0.1:6379> `, `redis> `) is
// dropped from the front of each line that starts an entry. A script is
// read whole and checked before anything runs; an entry that starts
// background jobs is a run of its own. Every run ends the same way: its
// jobs finish, and the jobs they started, then its verdict and the
// summary of its expectations.
//
// Each entry is handed to the history (the REPL's) after it ran, unless
// a command it sent, its background jobs' included, carried a secret
// (session.CarriesSecret): A\UTH, $(AUTH pw), a=AUTH; $a pw and
// redis-cli -a all count, as what reached the server decides.
//
// The interpreter is restricted. Its call handler and exec handler ask
// repl/lang/words what a command word means (words.Classify), and run it: a
// Redis command goes to the session's connection, and its reply is
// printed as redis-cli prints it, recorded (repl/lab/record) and annotated
// under it; a lab word or macro runs from the word table; `@NAME` runs
// in session NAME; a path runs a script. No host program ever starts,
// and no file opens but /dev/null and the lab's own scripts. A word's
// failure is printed, and mapped to an exit status, in one place
// (report).
package shell
