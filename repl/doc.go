// Package repl is locklab's terminal: the read-eval-print loop that reads
// entries (one line, or several while the shell says the entry is
// incomplete), runs each through the lab language with its own context,
// and shows a redis-cli-style prompt.
//
// One loop serves every input: readline on a terminal (prompt, history,
// completion, hints, Ctrl-C), and a plain line reader for piped stdin, so
// that `locklab < lesson.txt` runs exactly what typing it would.
//
// The pipeline, end to end: line -> repl (entry) -> shell (parse, dispatch)
// -> session (Redis) -> resp (format) -> terminal.
package repl
