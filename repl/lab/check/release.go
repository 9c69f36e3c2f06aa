package check

import (
	"time"

	"github.com/locklab/locklab/repl/lab/lockargs"
)

// onDelete judges a plain DEL or UNLINK of lock keys, from the key's value
// read in the same MULTI just before it.
func (a *Annotator) onDelete(e Event) []Note {
	var notes []Note
	// A single-key DEL that answered 0 deleted nothing: the key expired
	// between the read and the DEL (which a server may do inside MULTI).
	none := len(e.Args) == 2 && e.Reply.IsInt && e.Reply.Int == 0
	for _, key := range e.Args[1:] {
		a.resetSlot(key)
		st, ok := e.before(key)
		if !ok || st.Slot {
			continue // not read, or a slot (resetSlot said what it did): no lock
		}
		l := a.lockFor(key)
		notes = append(notes, a.release(e, l, st, !st.Exists || none)...)
	}
	return notes
}

// onEval judges a script run on lock keys (a compare-and-delete release,
// typically) by the key's value before and after it.
func (a *Annotator) onEval(e Event) []Note {
	keys, token, _ := lockargs.EvalKeys(e.Args)
	var notes []Note
	for _, key := range keys {
		before, ok1 := e.before(key)
		after, ok2 := e.after(key)
		l := a.locks[key]
		if !ok1 || !ok2 || l == nil || len(l.holdings) == 0 {
			if ok1 && ok2 && !after.Slot {
				notes = append(notes, a.lockState(e, before, after)...) // not a lock of this run yet: what did it write?
			}
			continue
		}
		kept := before.Exists && after.Exists && after.Value == before.Value
		if kept {
			if moved := a.ttlChanged(e, l, before, after); len(moved) > 0 {
				notes = append(notes, moved...)
				continue
			}
		}
		if kept {
			notes = append(notes, a.kept(e, l, before, token)...)
			continue
		}
		// A script that answered 0 deleted nothing: the key expired on its
		// own between the read and the script.
		expired := e.Reply.IsInt && e.Reply.Int == 0
		notes = append(notes, a.release(e, l, before, !before.Exists || expired)...)
	}
	return notes
}

// release is a release attempt by e.Session that deleted the lock holding
// st.Value, or found it already gone (gone).
func (a *Annotator) release(e Event, l *lock, st KeyState, gone bool) []Note {
	l.removed = true
	mine := l.bySession[e.Session]
	wasReleased := mine == nil || mine.released
	if len(l.holdings) > 0 {
		l.releases++ // a delete the verdict can judge
	}
	notes := a.outlived(l, mine, gone)
	notes = append(notes, a.endBelief(e, l, mine)...)
	if gone {
		if wasReleased {
			return notes // a reset of a lock nobody here held: nothing to say
		}
		return append(notes, Note{e.Session, Info, Say("nothing to release: %s was already gone", l.key)})
	}
	if old, ok := l.expiredToken[e.Session]; ok && mine != nil && st.Value == mine.token && old != st.Value && e.name() != "EVAL" && e.name() != "EVALSHA" {
		return append(notes, a.ambiguous(e, l, st, old))
	}
	if mine != nil && st.Value == mine.token {
		return append(notes, Note{e.Session, Good, Say("released: %s deleted its own lock on %s", e.Session, l.key)})
	}
	if _, known := a.tokens[st.Value]; !known {
		return notes // a token no session of this run took: whose it is, we cannot say
	}
	if h := l.holdingOf(st.Value); h != nil {
		h.deletedBy, h.deletedAt = e.Session, e.Start // its holder works on, with no lock
	}
	return append(notes, a.wrongOwner(e, l, st, mine))
}

// holdingOf is the latest acquisition with token that nobody has released
// or deleted yet, if any.
func (l *lock) holdingOf(token string) *holding {
	for i := len(l.holdings) - 1; i >= 0; i-- {
		if h := l.holdings[i]; h.token == token && !h.released && h.deletedBy == "" {
			return h
		}
	}
	return nil
}

// onServer is the acquisition whose lock the key holds with token: the
// latest, even when its holder already tried to release it and the key
// stayed (a compare-and-delete with another token), so that a TTL cut
// or given later moves its deadline; else as holdingOf.
func (l *lock) onServer(token string) *holding {
	if h := l.current; h != nil && h.token == token && !l.removed {
		return h
	}
	return l.holdingOf(token)
}

// ambiguous is a plain DEL by a session that held the lock twice, with two
// tokens: the DEL carries no token, so it may be the first (expired)
// holder deleting the second one's lock.
func (a *Annotator) ambiguous(e Event, l *lock, st KeyState, old string) Note {
	text := Say("DEL removed %s holding %s", l.key, st.Value)
	if st.PTTL >= 0 {
		text += Say(" (%s left)", secs(st.PTTL))
	}
	text += Say("; if this was %s's release, it deleted %s's lock: a plain DEL cannot tell (a blind unlock)", old, st.Value)
	a.findings = append(a.findings, Finding{Kind: BlindDel, Key: l.key, Text: text})
	return Note{e.Session, Bad, text}
}

func (a *Annotator) wrongOwner(e Event, l *lock, st KeyState, mine *holding) Note {
	who := e.Session
	if n := e.name(); n != "DEL" && n != "UNLINK" && n != "EVAL" && n != "EVALSHA" {
		who = Say("%s's %s", e.Session, n)
	}
	text := Say("WRONG-OWNER DEL: %s removed %s on %s", who, a.whoseLock(st.Value), l.key)
	if st.PTTL >= 0 {
		text += Say(", which had %s left", secs(st.PTTL))
	}
	switch {
	case mine != nil && mine.deletedBy != "":
		text += Say(" (%s's own lock was deleted by %s at %s)", e.Session, mine.deletedBy, a.at(mine.deletedAt))
	case mine != nil && !mine.expires.IsZero():
		text += Say(" (%s's own lock expired at %s)", e.Session, a.at(mine.expires))
	}
	a.findings = append(a.findings, Finding{Kind: WrongOwnerDel, Key: l.key, Text: text})
	return Note{e.Session, Bad, text}
}

// kept is a compare-and-delete that found another token and left the lock.
func (a *Annotator) kept(e Event, l *lock, st KeyState, token string) []Note {
	mine := l.bySession[e.Session]
	l.releases++
	notes := a.outlived(l, mine, false)
	notes = append(notes, a.endBelief(e, l, mine)...)
	if st.Value == token {
		return append(notes, Note{e.Session, Info, Say("not released: %s still holds %s", a.owner(token), l.key)})
	}
	text := Say("safe: token mismatch (%s is not %s), %s kept", token, st.Value, a.whoseLock(st.Value))
	return append(notes, Note{e.Session, Good, text})
}

// outlived is the note for a release attempt showing that mine's TTL ran
// out while its holder was still working: the key is gone, or another
// session acquired it since. Not when another session of this run deleted
// it, nor when a failover or a restart lost it: it did not expire then.
func (a *Annotator) outlived(l *lock, mine *holding, gone bool) []Note {
	if mine == nil || mine.released || mine.lostNoted || mine.deletedBy != "" || !mine.lostAt.IsZero() {
		return nil
	}
	if !gone && !mine.superseded {
		return nil
	}
	return []Note{a.lost(mine, l.key)}
}

// extended is a script that gave the lock more time (a watchdog's
// compare-and-PEXPIRE): its holder's lock now lives longer.
func (a *Annotator) extended(e Event, l *lock, before, after KeyState) Note {
	if h := l.current; h != nil && h.token == after.Value {
		h.expires, h.notBefore = time.Time{}, time.Time{}
		if after.PTTL >= 0 {
			h.expires, h.notBefore = e.End.Add(after.PTTL), e.Start.Add(after.PTTL)
		}
		if h.session == e.Session {
			h.told = h.expires
		}
	}
	if after.PTTL < 0 {
		return Note{e.Session, Good, Say("lock extended: %s no longer expires (it had %s left)", a.whoseLock(after.Value), secs(before.PTTL))}
	}
	return Note{e.Session, Good, Say("lock extended: %s now expires in %s (it had %s left)", a.whoseLock(after.Value), secs(after.PTTL), secs(before.PTTL))}
}
