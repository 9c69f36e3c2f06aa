// Package app is locklab as a program: from the options main.go parsed
// it chooses the mode (the REPL on a terminal, piped stdin, -c LINE, a
// script, or one command as redis-cli would run it), starts the
// embedded Redis unless a server was named, decides colour and CPUs,
// wires Ctrl-C (one entry at the prompt, the whole run elsewhere), runs
// the shell, writes the timeline files, and turns the run's error into
// the exit status.
package app
