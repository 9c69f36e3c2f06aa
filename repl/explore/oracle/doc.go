// Package oracle checks the checker: between the steps of an explored
// schedule it reads the embedded server's real state, directly and not
// through any connection, and compares it with what the checker (package
// check, through the run's record) believes the server holds. For every
// key the checker knows as a lock: whether it exists, its value (the
// holder's token) and the time it has left; for every slot: its list's
// length. Any difference is a *Divergence, which names the step, the
// schedule so far and both states.
//
// It is independent of the checker: it reads the server, never the
// events, probe reads or replies the checker reads. The checker's side is
// its Believed answer (check.Annotator.BelievedLocks and BelievedSlots).
//
// explore runs it after every step with --oracle (Options.Oracle), off
// by default: a normal search pays nothing for it. Package labgen makes
// random small labs to explore with it, and shrinks a divergent one.
//
// Times: the checker's deadlines are the server's TTLs counted from the
// events' times, which explore stamps with a nanosecond per step, and the
// probe reads PTTL in whole milliseconds; so remaining times that differ
// by at most Slack are the same, and a key whose believed deadline is
// within Slack of now may be there or gone.
package oracle
