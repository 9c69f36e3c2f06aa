package record

import "github.com/locklab/locklab/repl/lab/check"

// Believed is what the annotator believes the server holds now, for the
// oracle (repl/explore/oracle) to compare with the server itself.
func (r *Recorder) Believed() ([]check.LockBelief, []check.SlotBelief) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ann.BelievedLocks(), r.ann.BelievedSlots()
}
