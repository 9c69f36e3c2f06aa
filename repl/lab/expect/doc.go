// Package expect is the grammar of `expect`, the line that makes a .lab
// script check itself: Parse reads one (a command and what its reply
// must be, the last reply, the verdict, or how many output lines match),
// and Compare compares as test(1) does, as numbers when both sides are
// numbers. It is pure: the shell runs the check (repl/lang/words).
package expect
