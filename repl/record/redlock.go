package record

import (
	"time"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/quorum"
)

// Acquired reads one Redlock acquisition: each node's answer, and what
// its client concluded (see package quorum).
func (r *Recorder) Acquired(a quorum.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Acquired(a)
	r.unjudged++
}

// Released reads one Redlock release, node by node.
func (r *Recorder) Released(rel quorum.Release) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Released(rel)
	r.unjudged++
}

// Fault reads something the lab did to its Redlock nodes.
func (r *Recorder) Fault(f quorum.Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quorum.Fault(f)
}

// Redlock is the Redlock findings on the nodes of lab (quorum.AllLabs:
// every `redlock up` of the run), and how many grants there were: the
// same findings the run's verdict lists.
func (r *Recorder) Redlock(lab int) ([]check.Finding, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quorum.Findings(lab)
}

// nodeHolds are the Redlock nodes' holds as of now. r.mu is held.
func (r *Recorder) nodeHolds() []quorum.Hold { return r.quorum.Holds(time.Now()) }
