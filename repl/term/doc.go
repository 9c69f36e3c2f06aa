// Package term is locklab's terminal: readline with a redis-cli-style
// prompt, completion of commands, subcommands, lab words and keys seen,
// grey argument hints, and the history file, which never keeps an entry
// that sent a secret (the shell decides, from what reached a server) or
// whose text may hold one.
//
// It reads lines and nothing else: the shell (repl/lang/shell) parses each
// entry as it is read and runs it. The pipeline, end to end:
//
//	line -> repl (terminal) -> shell (parse, dispatch by repl/lang/words)
//	     -> session (Redis) -> resp (format) -> record (annotate) -> output
package term
