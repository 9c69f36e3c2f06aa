package check

import (
	"fmt"
	"slices"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// holding is one acquisition of a lock: who, with which token, and until
// when the server said it would live.
type holding struct {
	session, token    string
	acquired, expires time.Time
	// notBefore is the earliest the server can have expired it: its TTL
	// counted from when the command was sent (expires counts from the
	// reply). Events of concurrent sessions may be read out of order.
	notBefore time.Time
	// told is when its holder believes it expires: the TTL it was given,
	// or gave itself; expires moves with what others do to the key (a
	// PEXPIRE that cuts it), told does not (see belief).
	told       time.Time
	released   bool      // its holder released it (or tried to)
	releasedAt time.Time // ... when
	// believedUntil is when its holder's belief that it held the lock
	// ended, once the events show it: its release attempt, or its next
	// acquisition of the same lock (see belief).
	believedUntil time.Time
	deletedBy     string // another session deleted it (a wrong-owner DEL)
	deletedAt     time.Time
	cutBy         string // another session cut its time to live (its holder was not told)
	cutAt         time.Time
	lostNoted     bool // "expired while still working" already said
	superseded    bool // another session acquired the lock after this one (see outlived)
	// lostAt is when the server lost this lock other than by its TTL (a
	// replica without it promoted, a restart without persistence), and
	// lostHow says it: "when the replica was promoted".
	lostAt  time.Time
	lostHow string
}

// release marks h released by its holder at t: its holder believed it
// held the lock until it sent the release.
func (h *holding) release(t time.Time) {
	if h != nil && !h.released {
		h.released, h.releasedAt = true, t
		if h.believedUntil.IsZero() {
			h.believedUntil = t
		}
	}
}

// stopBelieving is h's holder taking the same lock again at t: its belief
// in h ended by then, at h's expiry if that came first.
func (h *holding) stopBelieving(t time.Time) {
	if h.believedUntil.IsZero() {
		h.believedUntil = t
		if told := h.toldExpiry(); !told.IsZero() && told.Before(t) {
			h.believedUntil = told
		}
	}
}

// lock is what the run did with one lock key.
type lock struct {
	key     string
	current *holding // the latest acquisition
	// removed is whether the key was seen gone since current's
	// acquisition (a release that deleted it, another session's removal,
	// FLUSHDB ...). A holding's released is its holder's belief, not the
	// key: a compare-and-delete with a wrong token ends the belief and
	// leaves the lock on the server (see BelievedLocks).
	removed   bool
	bySession map[string]*holding // each session's latest acquisition
	// expiredToken is, for a session that acquired the lock again after
	// its own earlier lock expired unreleased, that earlier token: one
	// session playing two clients, as the lesson's blind-unlock script does.
	expiredToken map[string]string
	// waitingFor is the holder a session last failed to take the lock
	// from, and when, so that a retry loop is noted once per acquisition.
	waitingFor map[string]waiting
	holdings   []*holding // every acquisition, in the order they were observed
	tried      []string   // the sessions that sent a SET ... NX the server answered
	releases   int        // release attempts on an acquisition of this run
	noted      map[[2]*holding]bool
}

type waiting struct {
	token string
	at    time.Time
}

// Annotator turns events into notes and, at the end, verdicts. It is not
// safe for concurrent use: feed it from one goroutine (or behind a lock).
type Annotator struct {
	start     time.Time
	locks     map[string]*lock
	tokens    map[string]string // token -> the session that acquired with it
	slots     map[string]*slot
	slotOrder []string
	findings  []Finding
	held      []heldLock // every acquisition, in order, for drawing (Holdings)
	last      time.Time  // the latest reply of the run: as far as the events see
	home      int        // the database of the run's first probed command (see Event.inDB)
	homeSet   bool
}

// New makes an annotator for a run that began at start.
func New(start time.Time) *Annotator {
	return &Annotator{start: start, locks: map[string]*lock{}, tokens: map[string]string{}, slots: map[string]*slot{}}
}

// Observe reads one event and returns the notes to print under its reply.
func (a *Annotator) Observe(e Event) []Note {
	if e.End.After(a.last) {
		a.last = e.End
	}
	if len(e.Args) == 0 || e.Reply.Err != "" || e.Reply.Queued {
		return nil
	}
	if e.HasDB && !a.homeSet {
		a.home, a.homeSet = e.DB, true
	}
	e = e.inDB(a.home)
	switch e.name() {
	case "SET", "SETNX":
		if _, _, _, ok := lockargs.IsSetNX(e.Args); ok {
			return a.onSet(e)
		}
	case "DEL", "UNLINK":
		return a.onDelete(e)
	case "EVAL", "EVALSHA":
		if isFencedWrite(e.Args) {
			return a.onFencedWrite(e)
		}
		return a.onEval(e)
	case "WAIT":
		return a.onWait(e)
	case "EXISTS", "GET":
		return append(append(a.onRead(e), a.onHolderRead(e)...), a.onStates(e)...)
	case "LLEN":
		return a.onCheck(e)
	case "RPUSH", "LPUSH":
		return append(a.onBook(e), a.onStates(e)...)
	}
	if commands.DatabaseWide(e.Args) {
		a.unread(e)
	}
	return a.onStates(e)
}

// unread forgets the length of every slot a database-wide write (FLUSHDB,
// SWAPDB ...) changed without the probe reading it (a slot the probe did
// not know yet: one a macro named, booked by an RPUSH it did not read):
// what the write did to it, the events do not show.
func (a *Annotator) unread(e Event) {
	for key, s := range a.slots {
		if _, read := e.after(key); !read {
			s.shown = false
		}
	}
}

// Sending is told of a command before it is sent: the token of a SET ...
// NX is known to be that session's from then on, so that a rival whose
// reply arrives first can already be told who holds the lock.
func (a *Annotator) Sending(session string, args []string) {
	if _, token, _, ok := lockargs.IsSetNX(args); ok {
		a.tokens[token] = session
	}
}

func (a *Annotator) lockFor(key string) *lock {
	l := a.locks[key]
	if l == nil {
		l = &lock{key: key, bySession: map[string]*holding{}, expiredToken: map[string]string{},
			waitingFor: map[string]waiting{}, noted: map[[2]*holding]bool{}}
		a.locks[key] = l
	}
	return l
}

// at is a time as an offset from the start of the run: "+0.301s".
func (a *Annotator) at(t time.Time) string { return fmt.Sprintf("+%.3fs", t.Sub(a.start).Seconds()) }

func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// owner names whoever acquired with token: "fast (fast-token)", or just
// the token when no session of this run acquired with it.
func (a *Annotator) owner(token string) string {
	if s, ok := a.tokens[token]; ok {
		return Say("%s (%s)", s, token)
	}
	return token
}

// whoseLock is "fast's lock (fast-token)", or "the lock holding TOKEN"
// when no session of this run acquired with it.
func (a *Annotator) whoseLock(token string) string {
	if s, ok := a.tokens[token]; ok {
		return Say("%s's lock (%s)", s, token)
	}
	return Say("the lock holding %s", token)
}

func (a *Annotator) onSet(e Event) []Note {
	key, token, ttl, ok := lockargs.IsSetNX(e.Args)
	if !ok {
		return nil
	}
	l := a.lockFor(key)
	answer := acquired(e)
	if answer != unknown && !slices.Contains(l.tried, e.Session) {
		l.tried = append(l.tried, e.Session)
	}
	switch answer {
	case no:
		return a.notAcquired(e, key)
	case unknown:
		return nil
	}
	if st, ok := e.after(key); ok && st.PTTL >= 0 {
		ttl = st.PTTL
	}
	notes := a.supersede(e, l)
	a.hold(e, l, token, ttl)
	a.tokens[token] = e.Session
	text := Say("lock acquired: %s holds %s", e.Session, key)
	if ttl > 0 {
		text += Say(" for %s", secs(ttl))
	}
	return append(notes, Note{e.Session, Good, text})
}

// hold records e.Session's acquisition of l with token, for ttl (0: no
// expiry), as the server granted it by e.End.
func (a *Annotator) hold(e Event, l *lock, token string, ttl time.Duration) *holding {
	h := &holding{session: e.Session, token: token, acquired: e.End}
	a.held = append(a.held, heldLock{l.key, h})
	l.holdings = append(l.holdings, h)
	if ttl > 0 {
		h.expires, h.notBefore = e.End.Add(ttl), e.Start.Add(ttl)
		h.told = h.expires
	}
	l.current, l.bySession[e.Session], l.removed = h, h, false
	for s, w := range l.waitingFor {
		if w.at.Before(e.Start) { // it failed before this acquisition: tell it again
			delete(l.waitingFor, s)
		}
	}
	return h
}

func (a *Annotator) notAcquired(e Event, key string) []Note {
	st, ok := e.after(key)
	if !ok || !st.Exists {
		return []Note{{e.Session, Info, "lock not acquired"}}
	}
	l := a.lockFor(key)
	if w, ok := l.waitingFor[e.Session]; ok && w.token == st.Value {
		return nil // still waiting for the same holder: said already
	}
	l.waitingFor[e.Session] = waiting{token: st.Value, at: e.End}
	text := Say("lock not acquired: held by %s", a.owner(st.Value))
	if st.PTTL >= 0 {
		text += Say(", %s left", secs(st.PTTL))
	}
	return []Note{{e.Session, Info, text}}
}

type answer int

const (
	unknown answer = iota
	yes
	no
)

// acquired reads a SET ... NX's (or SETNX's) reply: OK or 1 won, nil or 0
// lost; with SET's GET option, nil won (there was no old value) and a
// string lost (the holder's token).
func acquired(e Event) answer {
	r := e.Reply
	switch {
	case r.Err != "":
		return unknown
	case lockargs.HasGet(e.Args):
		if r.Nil {
			return yes
		}
		return no
	case r.OK() || (r.IsInt && r.Int == 1):
		return yes
	case r.Nil || (r.IsInt && r.Int == 0):
		return no
	}
	return unknown
}

// supersede handles a new acquisition of a lock someone still believed
// they held: the server granted it, so that holder's TTL ran out.
func (a *Annotator) supersede(e Event, l *lock) []Note {
	prev := l.current
	if prev == nil || prev.released {
		return nil
	}
	if !prev.lostAt.IsZero() && prev.session != e.Session {
		return []Note{a.twoHolders(e, l, prev)}
	}
	if prev.deletedBy != "" {
		// It did not expire: it was deleted, and that was said. Its holder
		// may work on, believing it holds the lock.
		if prev.session == e.Session {
			prev.stopBelieving(e.Start)
			return nil
		}
		prev.superseded = true
		return a.stillBelieved(e, l, prev)
	}
	if !prev.notBefore.IsZero() && e.End.Before(prev.notBefore) {
		// The server granted the lock before prev's TTL could have run out:
		// prev released it, and that event is still on its way to us.
		return nil
	}
	if prev.session == e.Session {
		return []Note{a.reacquired(e, l, prev)}
	}
	prev.superseded = true
	if prev.cutBy != "" {
		// Its TTL ran out because another session cut it: its holder
		// still believes what it was told.
		text := Say("%s's lock on %s had expired at %s, cut short by %s", prev.session, l.key, a.at(prev.expires), prev.cutBy)
		return append([]Note{{e.Session, Info, text}}, a.stillBelieved(e, l, prev)...)
	}
	// The server granted the lock, so prev's TTL ran out before prev
	// released it; whether prev was still working shows only if it acts
	// again (see outlived and endBelief).
	text := Say("%s's lock on %s had expired", prev.session, l.key)
	if !prev.expires.IsZero() {
		text += " at " + a.at(prev.expires)
	}
	return []Note{{e.Session, Info, text + Say(", before %s released it", prev.session)}}
}

// reacquired is prev's session taking the lock again after prev's TTL ran
// out.
func (a *Annotator) reacquired(e Event, l *lock, prev *holding) Note {
	if _, token, _, _ := lockargs.IsSetNX(e.Args); token != prev.token {
		l.expiredToken[e.Session] = prev.token
	}
	prev.stopBelieving(e.Start)
	return Note{e.Session, Info, Say("%s re-acquired %s: its previous lock (%s) had expired", e.Session, l.key, prev.token)}
}

// Failover tells the annotator a replica was promoted at t: every lock
// still held then (acknowledged, unexpired, unreleased) may be missing on
// the new primary; the next acquisition by someone else shows it is.
func (a *Annotator) Failover(t time.Time) { a.Lost(t, LostInFailover) }

// Lost tells the annotator the server lost its data at t, how saying so
// (LostInFailover, LostInRestart): every lock still held then
// (acknowledged, unexpired, unreleased) is gone, or may be; the next
// acquisition by someone else shows it is.
func (a *Annotator) Lost(t time.Time, how string) {
	for _, l := range a.locks {
		h := l.current
		if h != nil && !h.released && (h.expires.IsZero() || h.expires.After(t)) {
			h.lostAt, h.lostHow = t, how
		}
		if how == LostInRestart {
			l.removed = true // the server holds no lock now
		}
	}
	if how == LostInRestart {
		for key := range a.slots {
			a.resetSlot(key) // nor any booking
		}
	}
}

// Unanswered reads a command whose reply never reached its session (a
// lost reply): its session learnt nothing from it, so it is granted no
// lock and counted no booking; but a session that sent a release
// (DEL, UNLINK, a script on the lock's key) stopped working under that
// lock when it sent it, whatever came of it. What the server did shows in
// the next reads.
func (a *Annotator) Unanswered(e Event) {
	if e.End.After(a.last) {
		a.last = e.End
	}
	var keys []string
	switch e.name() {
	case "DEL", "UNLINK":
		keys = e.Args[1:]
	case "EVAL", "EVALSHA":
		keys, _, _ = lockargs.EvalKeys(e.Args)
	}
	for _, key := range keys {
		if l := a.locks[key]; l != nil && l.current != nil && l.current.session == e.Session && !l.current.released {
			l.current.stopBelieving(e.Start)
		}
	}
}

// How the server can lose a lock other than by its TTL (Lost).
const (
	LostInFailover = "when the replica was promoted"
	LostInRestart  = "when the server restarted empty"
)

// twoHolders is a lock granted to e.Session while prev still held it,
// after a failover or a restart lost prev's key: two clients hold "the same" lock.
func (a *Annotator) twoHolders(e Event, l *lock, prev *holding) Note {
	prev.superseded = true
	text := Say("TWO HOLDERS: %s's lock on %s (%s), acknowledged at %s", prev.session, l.key, prev.token, a.at(prev.acquired))
	if !prev.expires.IsZero() {
		text += Say(" with %s to live", secs(prev.expires.Sub(prev.acquired)))
	}
	text += Say(", vanished %s at %s; %s now holds it too", prev.lostHow, a.at(prev.lostAt), e.Session)
	a.findings = append(a.findings, Finding{Kind: TwoHolders, Key: l.key, Text: text, how: prev.lostHow})
	return Note{e.Session, Bad, text}
}

// lost is the note for a holder whose TTL ran out before it released.
func (a *Annotator) lost(h *holding, key string) Note {
	h.lostNoted = true
	text := Say("%s's lock on %s expired", h.session, key)
	if !h.expires.IsZero() {
		text += " at " + a.at(h.expires)
	}
	text += Say(" while %s was still working: %s no longer holds it", h.session, h.session)
	a.findings = append(a.findings, Finding{Kind: ExpiredWhileWorking, Key: key, Text: text})
	return Note{h.session, Bad, text}
}
