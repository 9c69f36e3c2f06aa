// Package testreport is what `locklab test` says about a folder of labs:
// each lab's result (ok, FAIL with its first failed expectation, or an
// error that kept it from being judged) and the summary, in the forms a
// person or a CI reads: short lines for a terminal, TAP version 13, JUnit
// XML and JSON. It only formats: running the labs is the program's
// (repl/app), and a result says only what the run showed.
package testreport
