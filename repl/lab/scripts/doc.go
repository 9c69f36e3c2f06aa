// Package scripts is the one home of every Lua script the lab sends to
// Redis: each is a named *Script with its body, what its KEYS and ARGV
// are, what it answers, and its SHA1 (the name SCRIPT LOAD gives it,
// computed once, for EVALSHA).
//
// The senders (the macros, load, redlock, keyguard) run these values and
// spell no Lua of their own; the annotator (repl/lab/check) knows the
// fenced write by RunBy, and the shell's hint for Lua pasted alone
// (LuaHint, given to it as shell.Config.Hint) shows Release as the lesson
// runs it. A test keeps it so: a Go string with redis.call or
// redis.pcall in it, outside this package and the tests, fails
// TestOneHome.
//
// Every script but Inspect touches only the keys it declares, each at a
// key position of the command it calls (KEYS[1], never a key it builds),
// so that explore's commute (repl/explore/commute) may take it as touching
// just those keys. (A channel a release PUBLISHes on, for load --retry
// notify, is an argument: a channel is no key.)
package scripts
