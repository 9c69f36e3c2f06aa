// Package precheck reads a whole script before it runs and reports the
// first thing that can never work, as FILE:LINE:COL: a command word the
// lab does not know (`bok alice`, with the nearest word it does), an
// `expect` line that does not parse, an unquoted < or > in one, and a
// lesson macro called against its usage line (a missing TOKEN, an option
// it does not have, a duration without its unit). Words known only at
// run time ($b) are taken as they may come.
package precheck
