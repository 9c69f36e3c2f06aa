package check

import (
	"fmt"
	"time"
)

// The one rule: a command is judged by what it did to each lock and slot
// key it touched, as the probe read them just before and just after it
// (see repl/lab/probe), not by its name. For a lock:
//
//   - a value appearing where there was none is an acquisition by the
//     sender, whatever command wrote it, when it is a lock: the run took
//     the key with SET ... NX before, or the value has a time to live
//     (a counter under a lock:... name is not one);
//   - a live lock that disappears, other than by its holder's own release
//     or by expiry, was removed by the sender (WRONG-OWNER DEL, whatever
//     the command: GETDEL, RENAME, MOVE, FLUSHDB, SWAPDB ...);
//   - a live lock whose value changes was replaced by the sender
//     (TAKEOVER), which now holds it;
//   - a live lock whose time to live the sender cut is a shortening
//     (TAKEOVER when another session cut it); one given more time is an
//     extension.
//
// The holder of a removed, replaced or cut lock still believes it holds
// it until it learns otherwise (its release, or a read of the key): an
// acquisition by another session meanwhile is an OVERLAP, from the same
// rule. The named handlers (SET ... NX, DEL, a compare-and-delete script,
// the fencing script) word the same facts in the lesson's terms.

// tolerance is how much two PTTLs of an untouched key may differ in e's
// transaction: none on a server that freezes its clock for a transaction
// (Redis), up to as long as the transaction took on one that does not
// (the embedded Redis: Event.Window), plus a millisecond, PTTL's unit:
// two reads truncated to whole milliseconds differ by up to a millisecond
// more than the time between them. (Without it, under load, readme.txtar's
// blind-unlock saw a kept compare-and-delete as a TAKEOVER that "cut
// 5.00s to 5.00s".)
func tolerance(e Event) time.Duration {
	return max(e.Window, e.End.Sub(e.Start)) + time.Millisecond
}

// onStates applies the rule to every key e's probe read.
func (a *Annotator) onStates(e Event) []Note {
	var notes []Note
	for _, after := range e.After {
		before, ok := e.before(after.Key)
		if !ok && e.Loose {
			before, ok = a.believedState(after.Key, e.Start)
		}
		switch {
		case !ok:
		case after.Slot:
			notes = append(notes, a.slotState(e, before, after)...)
		default:
			notes = append(notes, a.lockState(e, before, after)...)
		}
	}
	return notes
}

// believedState is key as the annotator believes the server held it at
// t: for a command whose Before could not be read (Event.Loose).
func (a *Annotator) believedState(key string, t time.Time) (KeyState, bool) {
	if s := a.slots[key]; s != nil {
		if !s.shown {
			return KeyState{}, false // named, never read: its length is not known
		}
		return KeyState{Key: key, Slot: true, Exists: s.length > 0, Len: s.length, PTTL: -1}, true
	}
	l := a.locks[key]
	if l == nil {
		return KeyState{Key: key}, true
	}
	h := l.current
	if h == nil || h.released || h.deletedBy != "" || (!h.expires.IsZero() && !h.expires.After(t)) {
		return KeyState{Key: key}, true
	}
	pttl := time.Duration(-1)
	if !h.expires.IsZero() {
		pttl = h.expires.Sub(t)
	}
	return KeyState{Key: key, Exists: true, Value: h.token, PTTL: pttl}, true
}

// lockState judges what e did to one lock key.
func (a *Annotator) lockState(e Event, before, after KeyState) []Note {
	switch {
	case !before.live() && !after.Exists:
		return nil
	case !before.live():
		if !a.lockLike(after) {
			return nil
		}
		return a.wrote(e, a.lockFor(after.Key), after)
	case !after.Exists:
		return a.release(e, a.lockFor(after.Key), before, false)
	case before.Value != after.Value:
		l := a.lockFor(after.Key)
		return append(a.replaced(e, l, before, after), a.wrote(e, l, after)...)
	}
	return a.ttlChanged(e, a.lockFor(after.Key), before, after)
}

// lockLike reports whether a value written in a lock key is a lock: the
// run took that key with SET ... NX before, or the value was written with
// a time to live. A counter kept under a lock:... name (a fencing
// token's INCR) is neither.
func (a *Annotator) lockLike(after KeyState) bool {
	if l := a.locks[after.Key]; l != nil && (len(l.holdings) > 0 || len(l.tried) > 0) {
		return true
	}
	return after.PTTL > 0
}

// wrote is a value appearing in a lock key (or replacing another): an
// acquisition by e.Session, whatever command wrote it.
func (a *Annotator) wrote(e Event, l *lock, after KeyState) []Note {
	notes := a.supersede(e, l)
	ttl := max(after.PTTL, 0)
	if _, known := a.tokens[after.Value]; !known {
		a.tokens[after.Value] = e.Session // a value another session took stays its (a RENAME moves it)
	}
	a.hold(e, l, after.Value, ttl)
	text := Say("lock acquired: %s holds %s", e.Session, l.key)
	if ttl > 0 {
		text += Say(" for %s", secs(ttl))
	}
	return append(notes, Note{e.Session, Good, text + a.how(e, after.Value)})
}

// how says how a value came to be in a key: written by e, or, when the
// key could only be read after e (Event.Loose), found there just after.
func (a *Annotator) how(e Event, value string) string {
	if e.Loose {
		return Say(" (%s, read just after its %s, not in the same step)", value, e.name())
	}
	return Say(" (its %s wrote %s)", e.name(), value)
}

// replaced is a live lock whose value e changed. Its holder's own
// rewrite ends its holding; another session's is a TAKEOVER, and the
// old holder works on, believing it still holds the lock.
func (a *Annotator) replaced(e Event, l *lock, before, after KeyState) []Note {
	h := l.holdingOf(before.Value)
	owner, known := a.tokens[before.Value]
	if owner == e.Session {
		h.release(e.Start)
		return nil
	}
	if !known {
		return nil // a token no session of this run took: whose it is, we cannot say
	}
	if h != nil {
		h.deletedBy, h.deletedAt = e.Session, e.Start
	}
	text := Say("TAKEOVER: %s's %s replaced %s with %s on %s; %s", e.Session, e.name(), a.whoseLock(before.Value), after.Value, l.key, stillHad(owner, before.PTTL))
	return []Note{a.finding(e.Session, Takeover, l.key, text)}
}

// ttlChanged is a live lock whose value e kept and whose time to live it
// changed: cut short, or given more.
func (a *Annotator) ttlChanged(e Event, l *lock, before, after KeyState) []Note {
	h := l.onServer(before.Value)
	owner, known := a.tokens[before.Value]
	if !known {
		return nil // a value no session of this run took as a lock: nobody's lock was cut
	}
	switch {
	case after.PTTL >= 0 && (before.PTTL < 0 || after.PTTL < before.PTTL-tolerance(e)):
		if h != nil {
			h.expires, h.notBefore = e.End.Add(after.PTTL), e.Start.Add(after.PTTL)
		}
		if owner == e.Session {
			if h != nil {
				h.told = h.expires
			}
			return []Note{{e.Session, Bad, Say("lock shortened: %s's %s cut its own lock on %s to %s; it had %s left", e.Session, e.name(), l.key, brief(after.PTTL), left(before.PTTL))}}
		}
		if h != nil {
			h.cutBy, h.cutAt = e.Session, e.Start
		}
		text := Say("TAKEOVER: %s's %s cut %s on %s to %s; %s", e.Session, e.name(), a.whoseLock(before.Value), l.key, brief(after.PTTL), stillHad(owner, before.PTTL))
		return []Note{a.finding(e.Session, Takeover, l.key, text)}
	case after.PTTL > before.PTTL+tolerance(e) && before.PTTL >= 0, after.PTTL < 0 && before.PTTL >= 0:
		return []Note{a.extended(e, l, before, after)}
	}
	return nil
}

// finding records a bad finding and returns its note, under session.
func (a *Annotator) finding(session string, kind Kind, key, text string) Note {
	a.findings = append(a.findings, Finding{Kind: kind, Key: key, Text: text})
	return Note{session, Bad, text}
}

// stillBelieved is e.Session's acquisition of l while prev's holder, whose
// lock another session removed, replaced or cut, still believes it holds
// it: it has not released it and the TTL it was told has not run out.
func (a *Annotator) stillBelieved(e Event, l *lock, prev *holding) []Note {
	if prev.released || prev.session == e.Session {
		return nil
	}
	if told := prev.toldExpiry(); !told.IsZero() && !told.After(e.End) {
		return nil
	}
	text := Say("OVERLAP: %s now holds %s while %s still believes it holds it (its lock %s was taken by %s at %s)",
		e.Session, l.key, prev.session, prev.token, prev.deletedBy, a.at(prev.deletedAt))
	if prev.deletedBy == "" {
		text = Say("OVERLAP: %s now holds %s while %s still believes it holds it (its lock %s was cut short by %s at %s)",
			e.Session, l.key, prev.session, prev.token, prev.cutBy, a.at(prev.cutAt))
	}
	return []Note{a.finding(e.Session, Overlap, l.key, text)}
}

// stillHad is "alice still had 4.20s" (or "alice's lock had no expiry").
func stillHad(owner string, pttl time.Duration) string {
	if pttl < 0 {
		return Say("%s's lock had no expiry", owner)
	}
	return Say("%s still had %s", owner, secs(pttl))
}

func left(pttl time.Duration) string {
	if pttl < 0 {
		return "no expiry"
	}
	return secs(pttl)
}

// brief is a time to live as the notes say it: "10ms" under a second,
// "1.50s" from then on.
func brief(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return secs(d)
}
