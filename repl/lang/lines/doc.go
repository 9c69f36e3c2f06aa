// Package lines is where the lab's lines come from: the Reader a run
// reads, one line at a time with a prompt, and Plain, the reader of a
// pipe or a file (the REPL's terminal is repl.Terminal). Lines are read
// and nothing more: the shell parses them.
package lines
