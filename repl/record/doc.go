// Package record keeps what one run of the lab did, in one place: every
// command as an event, fed to the annotator (repl/check) for its notes;
// the notes and events the timeline draws; the last reply each session
// printed (expect reply); how many expectations ran and failed; and how
// many error replies Redis gave (-e). A run begins with Reset.
//
// It does no I/O: the shell asks the server what the verdict needs (each
// slot's length) and hands the answers in.
package record
