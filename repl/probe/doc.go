// Package probe is the lab's side of a command on a lock: it decides which
// keys are locks, and sends a command that touches them so that the
// annotator can tell the truth. Inside one MULTI ... EXEC, the keys'
// values and PTTLs are read just before and just after the command,
// atomically with it; the reply shown is still the command's own.
//
// A Prober is a session.Middleware: install it on a run's sessions with
// sessions.Use(probe.New().Middleware()), and read its events with
// CheckEvent, which turns them into what the annotator (repl/check)
// reads.
package probe
