// Package precheck reads a whole script before it runs and reports the
// first thing that can never work, as FILE:LINE:COL: a command word the
// lab does not know (`bok alice`, with the nearest word it does), an
// `expect` line that does not parse, an unquoted < or > in one, and any
// word's own Check: for a word with a flags.Spec (the macros, load,
// redlock, explore ...) the spec's (a missing TOKEN, a flag it does not
// have, a duration without its unit), in the words it uses at run time.
// Words known only at run time ($b) are taken as they may come.
//
// Servers then follows the script's calls in order, with its arguments
// in place of "$@" and $1..$9, through each word's Effects: what a call
// makes of the servers the lab starts, and what it cannot run with. A
// call that cannot run with what the calls before it surely made
// (`redlock up "$@"` given --real, then `clock jump`) stops the script
// there, before anything runs, with the word's own why and what to do.
package precheck
