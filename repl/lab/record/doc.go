// Package record keeps what one run of the lab did, in one place: every
// command as an event, fed to the annotator (repl/lab/check) for its notes;
// the notes and events the timeline draws; the last reply each session
// printed (expect reply); how many expectations ran and failed; and how
// many error replies Redis gave (-e). A run begins with Reset.
//
// Events are fed to the annotator in the order the server ran them, not
// the order their replies came: a probed event waits for its turn
// (Observe, with the probe's Flight; see repl/lab/probe, "Server order"),
// its notes are said in that order, and its end is by when the server
// had run it, so that the timeline draws the same order. Unprobed events
// go in the order they arrive.
//
// It does no I/O: the shell asks the server what the verdict needs (each
// slot's length) and hands the answers in.
package record
