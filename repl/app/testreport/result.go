package testreport

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Status is a lab's outcome.
type Status int

const (
	Pass  Status = iota // every expectation held (in every order, for an explored lab)
	Fail                // an expectation failed (or, for an expect-fail lab, none did)
	Error               // the lab could not be judged: a syntax error, a missing file, a time-out
)

func (s Status) String() string { return [...]string{"ok", "FAIL", "ERROR"}[s] }

// Result is one lab's run.
type Result struct {
	File    string
	Mode    string // "one run", "every order" or "every order, must fail"
	Status  Status
	Problem string // one line: the first failed expectation, or the error
	Output  string // what the run printed (its transcript)
	Updated string // --update's diff of the lab's expect lines, if it rewrote them
	Elapsed time.Duration
}

// expectFailed is the line a failed expectation prints:
// "FILE:LINE:COL: expected ..., got ...".
var expectFailed = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\S+:\d+:\d+: expected .*)$`) })

// FirstFailure is the first failed expectation a transcript shows, or
// "".
func FirstFailure(output string) string {
	if m := expectFailed().FindStringSubmatch(output); m != nil {
		return m[1]
	}
	return ""
}

// LastLine is the transcript's last non-empty line: what a run that
// ended in an error said last.
func LastLine(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	return strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), "locklab: ")
}

// Counts is how many labs passed, failed and could not be judged.
type Counts struct{ Passed, Failed, Errors int }

// Count counts results.
func Count(results []Result) Counts {
	var c Counts
	for _, r := range results {
		switch r.Status {
		case Pass:
			c.Passed++
		case Fail:
			c.Failed++
		default:
			c.Errors++
		}
	}
	return c
}

func (c Counts) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d errors", c.Passed, c.Failed, c.Errors)
}
