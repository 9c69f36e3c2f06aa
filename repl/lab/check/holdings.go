package check

import "time"

type heldLock struct {
	key string
	h   *holding
}

// End says how a holding ended.
type End string

const (
	Released End = "released" // its holder deleted it
	Deleted  End = "deleted"  // another session deleted it (a wrong-owner DEL)
	Expired  End = "expired"  // its TTL ran out first
	Held     End = "held"     // still held when the run ended
)

// Holding is one acquisition of a lock as the run saw it: who held which
// lock, from when, until when and how it ended. Times are the server's
// answers (an expiry is when the PTTL read at acquisition ran out).
// Believed is when its holder stopped believing it held the lock, which
// may be later than Until (see Overlap): Overlaps reads From and Believed.
type Holding struct {
	Key, Session, Token string
	From, Until         time.Time
	End                 End
	DeletedBy           string
	Believed            time.Time
}

// Holdings lists every acquisition of the run, in order, as of now.
func (a *Annotator) Holdings(now time.Time) []Holding {
	out := make([]Holding, 0, len(a.held))
	for _, hl := range a.held {
		out = append(out, describe(hl, now, a.last))
	}
	return out
}

func describe(hl heldLock, now, last time.Time) Holding {
	h := hl.h
	out := Holding{Key: hl.key, Session: h.session, Token: h.token, From: h.acquired, Until: now, End: Held, Believed: h.belief(last)}
	expired := !h.expires.IsZero() && h.expires.Before(now)
	switch {
	case h.deletedBy != "" && (!expired || h.deletedAt.Before(h.expires)):
		out.Until, out.End, out.DeletedBy = h.deletedAt, Deleted, h.deletedBy
	case h.released && (!expired || h.releasedAt.Before(h.expires)):
		out.Until, out.End = h.releasedAt, Released
	case expired:
		out.Until, out.End = h.expires, Expired
	}
	return out
}
