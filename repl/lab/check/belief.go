package check

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A session believes it holds a lock from the reply that granted it (the
// OK) until it sends its release, whatever the release finds: a holder
// whose TTL ran out and who then releases shows it was working until then.
// A holder that never releases believes what it last saw: until the TTL
// the server gave it runs out (as read at acquisition, or at its last
// extension), or until it takes the same lock again. Nothing is believed
// past the latest reply of the run: what came after, the events do not
// show. An overlap is a period in which two or more sessions believed they
// held the same lock; periods that touch are one, and a period of no
// length is none.

// OverlapPeriod is one maximal period in which two or more sessions believed
// they held the lock Key.
type OverlapPeriod struct {
	Key         string
	From, Until time.Time
	Sessions    []string // every session that believed it held Key then, by when it acquired
	Opened      string   // the session whose acquisition began the period
	Closed      string   // the session whose belief ended it
}

// belief is when h's holder stopped believing it held the lock, as far as
// the events up to last show.
func (h *holding) belief(last time.Time) time.Time {
	if !h.believedUntil.IsZero() {
		return h.believedUntil
	}
	if told := h.toldExpiry(); !told.IsZero() && told.Before(last) {
		return told
	}
	return last
}

// toldExpiry is when h's holder believes its lock expires: what it was
// told, or the server's expiry when it was told nothing else.
func (h *holding) toldExpiry() time.Time {
	if !h.told.IsZero() {
		return h.told
	}
	return h.expires
}

// endBelief ends mine's belief at e, its release attempt, and notes each
// period it shared with another session's belief that this settles.
func (a *Annotator) endBelief(e Event, l *lock, mine *holding) []Note {
	if mine == nil || mine.released {
		return nil
	}
	mine.release(e.Start)
	var notes []Note
	for _, g := range l.holdings {
		if text, ok := a.pairOverlap(l, mine, g); ok {
			notes = append(notes, Note{e.Session, Bad, text})
		}
	}
	return notes
}

// pairOverlap is the note for the period in which mine (whose belief has
// ended) and g both believed they held l, once that period is settled: g's
// belief ended too, or g still held the lock by its TTL when mine's ended.
// (A g whose TTL ran out first is settled when g releases, or by the
// verdict.) Each pair is noted once.
func (a *Annotator) pairOverlap(l *lock, mine, g *holding) (string, bool) {
	if g == mine || g.session == mine.session || l.noted[[2]*holding{g, mine}] {
		return "", false
	}
	end, gEnd := mine.believedUntil, g.believedUntil
	if gEnd.IsZero() {
		if told := g.toldExpiry(); !told.IsZero() && told.Before(end) {
			return "", false
		}
		gEnd = end
	}
	from, until := latest(mine.acquired, g.acquired), earliest(end, gEnd)
	if !until.After(from) {
		return "", false
	}
	l.noted[[2]*holding{mine, g}] = true
	first, second := mine, g
	if g.acquired.Before(mine.acquired) {
		first, second = g, mine
	}
	return Say("OVERLAP: %s and %s both believed they held %s %s", first.session, second.session, l.key, a.span(from, until)), true
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// span is "from +1.005s to +1.007s", with more digits when the two would
// read the same: a period is never shown as having no length.
func (a *Annotator) span(from, until time.Time) string {
	for digits := 3; ; digits++ {
		f, u := a.atDigits(from, digits), a.atDigits(until, digits)
		if f != u || digits == 6 {
			return "from " + f + " to " + u
		}
	}
}

func (a *Annotator) atDigits(t time.Time, digits int) string {
	return fmt.Sprintf("+%.*fs", digits, t.Sub(a.start).Seconds())
}

// Overlaps finds, lock by lock (in the order the holdings first name
// them), every maximal period in which two or more sessions believed they
// held the same lock, from each holding's From to its Believed. The
// verdict counts these, and the timeline draws these.
func Overlaps(holdings []Holding) []OverlapPeriod {
	var keys []string
	for _, h := range holdings {
		if !slices.Contains(keys, h.Key) {
			keys = append(keys, h.Key)
		}
	}
	var out []OverlapPeriod
	for _, k := range keys {
		out = append(out, overlapsOf(k, holdings)...)
	}
	return out
}

// overlapsOf sweeps key's beliefs: between two consecutive instants at
// which a belief begins or ends, the believers do not change; a run of
// such stretches with two or more sessions believing is an overlap.
func overlapsOf(key string, all []Holding) []OverlapPeriod {
	var hs []Holding
	var times []time.Time
	for _, h := range all {
		if h.Key == key && h.Believed.After(h.From) {
			hs = append(hs, h)
			times = append(times, h.From, h.Believed)
		}
	}
	slices.SortStableFunc(hs, func(x, y Holding) int { return x.From.Compare(y.From) })
	slices.SortFunc(times, time.Time.Compare)
	times = slices.CompactFunc(times, time.Time.Equal)
	var out []OverlapPeriod
	open := false
	for i := 0; i+1 < len(times); i++ {
		if len(believers(hs, times[i], times[i+1])) < 2 {
			open = false
			continue
		}
		if !open {
			out = append(out, OverlapPeriod{Key: key, From: times[i]})
		}
		open, out[len(out)-1].Until = true, times[i+1]
	}
	for i := range out {
		out[i].describe(hs)
	}
	return out
}

// believers are the sessions of hs that believed they held the lock all
// through from..until, by when they acquired.
func believers(hs []Holding, from, until time.Time) []string {
	var who []string
	for _, h := range hs {
		if !h.From.After(from) && !h.Believed.Before(until) && !slices.Contains(who, h.Session) {
			who = append(who, h.Session)
		}
	}
	return who
}

// describe names the sessions of o: those whose belief fell in it, and
// whose began and ended it.
func (o *OverlapPeriod) describe(hs []Holding) {
	for _, h := range hs { // hs are in order of acquisition
		if !h.From.Before(o.Until) || !h.Believed.After(o.From) {
			continue
		}
		if !slices.Contains(o.Sessions, h.Session) {
			o.Sessions = append(o.Sessions, h.Session)
		}
		if h.From.Equal(o.From) {
			o.Opened = h.Session
		}
		if h.Believed.Equal(o.Until) {
			o.Closed = h.Session
		}
	}
}

// overlapSummary is the verdict's line for key's overlaps.
func (a *Annotator) overlapSummary(key string, list []OverlapPeriod) string {
	const shown = 4
	var periods []string
	for i, o := range list {
		if i == shown {
			periods = append(periods, Say("and %d more", len(list)-shown))
			break
		}
		periods = append(periods, Say("%s (%s)", a.span(o.From, o.Until), o.Sessions))
	}
	return Say("OVERLAP on %s: %d time(s) two or more sessions believed they held it at once: %s", key, len(list), strings.Join(periods, "; "))
}
