// Package output is where everything the lab prints ends up: one
// terminal (or stdout), written a whole line at a time, so that
// concurrent sessions never interleave mid-line; a gutter naming the
// session and the time since the run began once several sessions are in
// play (`alice +0.301s │ alice: booked (saw count=0)`); and the palette
// of session and note colours.
//
// Colour is decided per object (Paint), never through fatih/color's
// global switch, which only ever looks at os.Stdout.
package output
