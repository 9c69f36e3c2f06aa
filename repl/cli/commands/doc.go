// Package commands is a static table of the Redis commands, read from a real
// redis-server (see ServerVersion) and shipped with the app, because the
// embedded server's COMMAND table is incomplete and out of date.
//
// It serves the REPL's tab completion (Names, SubNames), the grey argument
// hints redis-cli shows while one types (Hint), the syntax line of `help CMD`
// (Command.Syntax), and an arity check that answers exactly like Redis does
// (CheckArity), so a wrong number of arguments is caught the same way on
// every server. It is also the one list of the commands that stream
// (Streams: the session keeps reading, the shell sends them alone,
// explore refuses them) and that may block (Blocks: sent alone).
//
// Hint and Syntax follow redis-cli 7.2's hint builder (src/redis-cli.c:
// matchArgs, addHintForArguments and their helpers), so they reproduce its
// hint test suite (tests/assets/test_cli_hint_suite.txt) as far as the
// 7.0 argument specs allow.
//
// The table lives in table_gen.go, written by internal/gen from COMMAND DOCS
// and COMMAND INFO; regenerate it with `go generate` (it needs redis-server
// on PATH). The package imports nothing of the project.
package commands

//go:generate go run ./internal/gen -o table_gen.go
