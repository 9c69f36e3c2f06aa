// Package duration reads a DUR as every lab word takes one (the macros'
// --work and --ttl, load's, load --redlock's and redlock's options,
// pause, restart --delay, clock jump, schedule --wait): a number with
// its unit. A bare number is refused, with one message everywhere:
// `--work 3` could mean 3 ms (as PX counts) or 3 s (as sleep does), and
// the two differ a thousandfold. Where Redis itself counts milliseconds
// (PX, PEXPIRE, and the extend macro that stands for PEXPIRE) the number
// is Redis's, not a DUR.
//
// The package imports nothing of the project, so that the language
// (precheck), the lab and explore read a DUR alike.
package duration

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"
)

// bare is a number with no unit: 3, -3, +0.5, .5, 3.
var bare = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$`) })

// NoUnitError is a bare number given for a DUR.
type NoUnitError struct{ Number string }

func (e *NoUnitError) Error() string {
	return fmt.Sprintf("%s needs a unit: %ss or %sms", e.Number, e.Number, e.Number)
}

// ErrSyntax is a DUR that is neither a number with its unit nor 0.
var ErrSyntax = errors.New("want a duration such as 300ms or 2s")

// Parse reads s as a DUR: a number with its unit as Go writes durations
// (300ms, 2s, 1m30s, 1.5s, -5s, +5s; ns, us, µs, ms, s, m, h), or a bare
// 0, which needs none. Any other bare number is a *NoUnitError (its text
// is the one message the README promises: "3 needs a unit: 3s or 3ms"),
// anything else ErrSyntax. The sign and the range are the caller's to
// judge.
func Parse(s string) (time.Duration, error) {
	if bare().MatchString(s) {
		if zero().MatchString(s) {
			return 0, nil
		}
		return 0, &NoUnitError{Number: s}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, ErrSyntax
	}
	return d, nil
}

// zero is a bare number that is 0 (0, 0.0, -0, .0).
var zero = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?0*\.?0*$`) })

// Flag reads value, the DUR given to flag (--work), and says what is
// wrong with it as every word says it: "--work 3: 3 needs a unit: 3s or
// 3ms".
func Flag(flag, value string) (time.Duration, error) {
	d, err := Parse(value)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", flag, value, err)
	}
	return d, nil
}

// Max bounds a lesson macro's DUR: a lab run is minutes, not years.
const Max = 24 * time.Hour

// Span reads a DUR a lesson macro works, waits or holds a lock for
// (Parse), from 0 to Max: the macros read theirs with it, and the
// precheck checks a script's calls of them with it.
func Span(s string) (time.Duration, error) {
	d, err := Parse(s)
	if err == nil && (d < 0 || d > Max) {
		err = errors.New("want a duration such as 300ms or 2s, up to 24h")
	}
	return d, err
}
