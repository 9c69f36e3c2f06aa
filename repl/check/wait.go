package check

import "fmt"

// onWait says what a WAIT proves. WAIT counts the replicas that have
// acknowledged the writes of the connection it is sent on, and only those:
// on the lock holder's own connection, 0 means the lock is not on any
// replica yet; on another connection it says nothing about the lock.
func (a *Annotator) onWait(e Event) []Note {
	if !e.Reply.IsInt {
		return nil
	}
	for _, key := range a.lockOrder() {
		h := a.locks[key].current
		if h == nil || h.released {
			continue
		}
		if h.session != e.Session {
			return []Note{{e.Session, Info, fmt.Sprintf("this WAIT counts only %s's own writes: it says nothing about %s's lock on %s (WAIT on %s's connection would)", e.Session, h.session, key, h.session)}}
		}
		if e.Reply.Int == 0 {
			return []Note{{e.Session, Bad, fmt.Sprintf("no replica has acknowledged %s's lock on %s: if the primary fails now, the lock is lost", e.Session, key)}}
		}
		return []Note{{e.Session, Good, fmt.Sprintf("%d replica(s) acknowledged %s's lock on %s", e.Reply.Int, e.Session, key)}}
	}
	return nil
}

// lockOrder is the lock keys in the order they were first acquired.
func (a *Annotator) lockOrder() []string {
	var out []string
	for _, hl := range a.held {
		seen := false
		for _, k := range out {
			seen = seen || k == hl.key
		}
		if !seen {
			out = append(out, hl.key)
		}
	}
	return out
}
