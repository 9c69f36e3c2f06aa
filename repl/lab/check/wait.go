package check

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
			return []Note{{e.Session, Info, Say("this WAIT counts only %s's own writes: it says nothing about %s's lock on %s (WAIT on %s's connection would)", e.Session, h.session, key, h.session)}}
		}
		if e.Reply.Int == 0 {
			return []Note{{e.Session, Bad, Say("no replica has acknowledged %s's lock on %s: if the primary fails now, the lock is lost", e.Session, key)}}
		}
		return []Note{{e.Session, Good, Say("%d replica(s) acknowledged %s's lock on %s", e.Reply.Int, e.Session, key)}}
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

// onRead notes a lock that a read shows gone after a failover or a
// restart while its holder never released it: acknowledged, then lost
// with the old primary, or the server's memory.
func (a *Annotator) onRead(e Event) []Note {
	if len(e.Args) != 2 {
		return nil
	}
	l := a.locks[e.Args[1]]
	gone := e.Reply.Nil || (e.Reply.IsInt && e.Reply.Int == 0)
	if l == nil || l.current == nil || l.current.lostAt.IsZero() || l.current.released || !gone {
		return nil
	}
	h := l.current
	if h.lostHow == LostInRestart {
		return []Note{{e.Session, Bad, Say("%s's lock on %s, acknowledged at %s, is gone: the restart lost it", h.session, l.key, a.at(h.acquired))}}
	}
	return []Note{{e.Session, Bad, Say("%s's lock on %s, acknowledged at %s, is not on the promoted replica: the failover lost it", h.session, l.key, a.at(h.acquired))}}
}

// onHolderRead is a holder reading its own lock key (the lesson's
// release reads it before it compares and deletes): a reply that is not
// its token tells it it no longer holds the lock, which ends its belief
// as a compare-and-delete that found another token does. The key as the
// probe read it, when it did, says how long the new holder has.
func (a *Annotator) onHolderRead(e Event) []Note {
	if e.name() != "GET" || len(e.Args) != 2 {
		return nil
	}
	l := a.locks[e.Args[1]]
	if l == nil {
		return nil
	}
	mine := l.bySession[e.Session]
	if mine == nil || mine.released || (!e.Reply.Nil && e.Reply.Str == mine.token) {
		return nil
	}
	st, ok := e.before(l.key)
	if !ok {
		st = KeyState{Key: l.key, Exists: !e.Reply.Nil, Value: e.Reply.Str, PTTL: -1}
	}
	if !st.Exists {
		return a.release(e, l, st, true)
	}
	return a.kept(e, l, st, mine.token)
}
