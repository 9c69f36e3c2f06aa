// Package shell is the lab language: every line typed, pasted, piped or
// read from a .lab or .sh file is parsed and run here.
//
// The language is POSIX shell, parsed and interpreted by mvdan.cc/sh/v3,
// so quoting, comments, `\` continuations, variables, $(...), if, for, &&,
// & and wait behave as in sh. The interpreter is restricted: its handlers
// decide what a command word means, and none of them ever starts a host
// program or opens a host file for writing:
//
//   - a Redis command (SET, eval, JSON.GET ...) goes to the current session;
//   - `@NAME CMD ...` runs CMD in session NAME, on its own connection;
//   - `redis-cli [flags] CMD` and `docker exec CTR redis-cli ...` run CMD on a
//     fresh connection, printed as the real program would print it;
//   - `./x.sh`, `bash x.sh`, `run x.lab`, `source x.lab` run a script file;
//   - sleep, help, clear and the shell's builtins (echo, test, wait ...);
//   - anything else is refused with status 127.
//
// Before parsing, Normalize drops the prompts people paste along with a
// command (`$ `, `127.0.0.1:6379> `, `redis> `).
package shell
