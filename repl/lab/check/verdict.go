package check

import (
	"slices"
	"strings"
)

// Kind names a finding; `expect verdict KIND` uses these names.
type Kind string

const (
	DoubleBooking       Kind = "double-booking" // more bookings than the one seat
	Overbooking         Kind = "overbooking"    // more bookings than seats, with seats > 1
	WrongOwnerDel       Kind = "wrong-owner-del"
	Overlap             Kind = "overlap"
	ExpiredWhileWorking Kind = "expired-while-working" // a lock ran out before its holder finished
	BlindDel            Kind = "blind-del"
	TwoHolders          Kind = "two-holders"
	Takeover            Kind = "takeover" // another session replaced or cut a live lock
	SlotOK              Kind = "slot-ok"
	AllClear            Kind = "all-clear"
	NoVerdict           Kind = "no-verdict" // what the run showed cannot be judged (see Verdict)
)

// Kinds are the finding names, for help and for checking `expect verdict`.
var Kinds = []Kind{DoubleBooking, Overbooking, WrongOwnerDel, Takeover, Overlap, ExpiredWhileWorking, BlindDel, TwoHolders, AllClear, NoVerdict}

// oldNames are names a kind had before, which scripts may still use.
var oldNames = map[string]Kind{"expired-while-held": ExpiredWhileWorking}

// ParseKind is the kind name names: one of Kinds, or an older name of
// one (expired-while-held).
func ParseKind(name string) (Kind, bool) {
	if k, ok := oldNames[name]; ok {
		return k, true
	}
	return Kind(name), slices.Contains(Kinds, Kind(name))
}

// Headline is the kind as the verdict line words it: DOUBLE BOOKING,
// WRONG-OWNER DEL, EXPIRED WHILE WORKING ...
func (k Kind) Headline() string {
	if k == WrongOwnerDel {
		return "WRONG-OWNER DEL"
	}
	return strings.ToUpper(strings.ReplaceAll(string(k), "-", " "))
}

// Finding is one thing the run showed.
type Finding struct {
	Kind Kind
	Key  string
	Text string
	how  string // TWO HOLDERS: how the first holder's lock was lost (LostInFailover, LostInRestart)
}

// Bad reports whether the finding is a bug showing.
func (f Finding) Bad() bool {
	switch f.Kind {
	case DoubleBooking, Overbooking, WrongOwnerDel, Takeover, Overlap, BlindDel, ExpiredWhileWorking, TwoHolders:
		return true
	}
	return false
}

// Level is how the finding reads: Bad for a bug showing, Info for no
// verdict (neither a bug nor a fix that held), Good otherwise.
func (f Finding) Level() Level {
	switch {
	case f.Bad():
		return Bad
	case f.Kind == NoVerdict:
		return Info
	}
	return Good
}

// Failed is what the caller knows of a run and its events do not show:
// how many of its commands failed (an argument error, a refused word, a
// connection error, an error reply inside a macro), and a description of
// the first (e.g. "script.lab:4: book-locked: unexpected argument ...").
type Failed struct {
	Count int
	First string
}

// Verdict is the end of a run: each slot judged by its final length (read
// from the server: lengths[key]), then the lock findings, then one of
//
//   - NO VERDICT when a command failed (failed: its caller's count; the
//     counts add up, the first description is kept), or when the run
//     touched a lock key or slot but acquired and booked nothing;
//   - NO VERDICT when nothing the run did could have gone wrong (one
//     session took a lock and kept it): nothing was contested, so nothing
//     can be cleared;
//   - all clear, naming only what the run checked, when nothing went wrong.
//
// Bad findings are facts and are listed whatever else the run did. A run
// that touched no lock key and no slot gets no verdict at all.
func (a *Annotator) Verdict(lengths map[string]int64, failed ...Failed) []Finding {
	return a.Judge(lengths, Other{}, failed...)
}

// Other is a part of the run another package judges (the Redlock nodes:
// repl/lab/quorum): its bad findings, listed after the locks'; what it checked
// and found no fault with; what it did that nothing contested; claims its
// evidence does not back (NO VERDICT, saying which).
type Other struct {
	Facts                []Finding
	Claims, Did, Missing []string
}

func (o Other) touched() bool { return len(o.Facts)+len(o.Claims)+len(o.Did)+len(o.Missing) > 0 }

// Judge is Verdict with other's part of the run judged with it.
func (a *Annotator) Judge(lengths map[string]int64, other Other, failed ...Failed) []Finding {
	var out []Finding
	for _, key := range a.Slots() {
		out = append(out, a.slotVerdict(a.slots[key], lengths[key])...)
	}
	out = append(append(out, a.lockVerdicts()...), other.Facts...)
	if f, ok := a.judgement(out, other, failed); ok {
		out = append(out, f)
	}
	return out
}

// judgement is the verdict's last line (see Verdict), if any.
func (a *Annotator) judgement(facts []Finding, other Other, failed []Failed) (Finding, bool) {
	mine := len(a.held) > 0 || len(a.Slots()) > 0
	if !mine && !a.touched() && !other.touched() {
		return Finding{}, false // no lock, no slot: nothing a verdict could be about (failures are on stderr)
	}
	if n, first := failures(failed); n > 0 {
		return noVerdict(commandsFailed(n, first)), true
	}
	if slices.ContainsFunc(facts, Finding.Bad) {
		return Finding{}, false
	}
	if len(other.Missing) > 0 {
		return noVerdict(strings.Join(other.Missing, "; ")), true
	}
	if !mine && !other.touched() {
		return noVerdict("nothing observed (no lock or booking in this run)"), a.touched()
	}
	claims := append(a.claims(), other.Claims...)
	if len(claims) == 0 {
		return noVerdict(a.uncontested(other.Did)), true
	}
	return Finding{Kind: AllClear, Text: "all clear: " + strings.Join(claims, ", ")}, true
}

func noVerdict(why string) Finding { return Finding{Kind: NoVerdict, Text: "NO VERDICT: " + why} }

func failures(failed []Failed) (n int, first string) {
	for _, f := range failed {
		n += f.Count
		if first == "" {
			first = f.First
		}
	}
	return n, first
}

func commandsFailed(n int, first string) string {
	switch {
	case first == "" && n == 1:
		return "1 command failed"
	case first == "":
		return Say("%d commands failed", n)
	case n == 1:
		return Say("1 command failed (%s)", first)
	}
	return Say("%d commands failed (first: %s)", n, first)
}

// touched reports whether the run did anything a verdict could be about:
// a lock key probed or tried, or a slot a macro booked on (given seats).
func (a *Annotator) touched() bool {
	if len(a.locks) > 0 {
		return true
	}
	for _, s := range a.slots {
		if s.told {
			return true
		}
	}
	return false
}

// claims are what the run checked and found no fault with: a slot booked
// (its length, read from the server, within its seats); a lock two or more
// sessions tried to take (one session alone cannot overlap itself); a
// release or delete of an acquisition of this run, judged by the token the
// server showed.
func (a *Annotator) claims() []string {
	var out []string
	if len(a.Slots()) > 0 {
		word := "no double booking"
		for _, k := range a.Slots() {
			if a.slots[k].seats > 1 {
				word = "no overbooking"
			}
		}
		out = append(out, word)
	}
	contested, released := false, false
	for _, l := range a.locks {
		contested = contested || len(l.tried) > 1
		released = released || l.releases > 0
	}
	if contested {
		out = append(out, "no overlapping holders")
	}
	if released {
		out = append(out, "no wrong-owner delete")
	}
	return out
}

// participants are the sessions that tried a lock or checked or booked a
// slot, in the order of the locks and slots.
func (a *Annotator) participants() []string {
	var who []string
	add := func(s string) {
		if !slices.Contains(who, s) {
			who = append(who, s)
		}
	}
	for _, key := range a.lockOrder() {
		for _, s := range a.locks[key].tried {
			add(s)
		}
	}
	for _, key := range a.slotOrder {
		for _, b := range a.slots[key].bookings {
			add(b.session)
		}
		for _, s := range a.slots[key].checkedBy {
			add(s)
		}
	}
	return who
}

// uncontested says what a run with nothing to judge did, other's part
// (did) last.
func (a *Annotator) uncontested(did []string) string {
	if len(a.participants()) == 0 {
		return Say("nothing contested (%s)", strings.Join(did, "; "))
	}
	var locks []string
	for _, key := range a.lockOrder() {
		n := 0
		for _, hl := range a.held {
			if hl.key == key {
				n++
			}
		}
		locks = append(locks, Say("%s acquired %d time(s)", key, n))
	}
	who := a.participants()
	text := Say("nothing contested (only %s used a lock or slot", who)
	if len(who) > 1 {
		text = Say("nothing contested (%s took part, but no lock was wanted by two of them and nothing was booked", who)
	}
	if did = append(locks, did...); len(did) > 0 {
		text += Say("; %s", strings.Join(did, ", "))
	}
	return text + ")"
}

// lockVerdicts sums the run's lock findings per lock, in the order the
// locks first showed a problem (an overlap shows when the run ends).
func (a *Annotator) lockVerdicts() []Finding {
	type kindKey struct {
		kind Kind
		key  string
	}
	counts, hows := map[kindKey]int{}, map[string]string{}
	var keys []string
	for _, f := range a.findings {
		if !slices.Contains(keys, f.Key) {
			keys = append(keys, f.Key)
		}
		counts[kindKey{f.Kind, f.Key}]++
		if f.how != "" {
			hows[f.Key] = f.how
		}
	}
	overlaps := map[string][]OverlapPeriod{}
	for _, o := range Overlaps(a.Holdings(a.last)) {
		if !slices.Contains(keys, o.Key) {
			keys = append(keys, o.Key)
		}
		overlaps[o.Key] = append(overlaps[o.Key], o)
	}
	var out []Finding
	for _, key := range keys {
		for _, k := range []Kind{TwoHolders, WrongOwnerDel, Takeover, BlindDel, Overlap, ExpiredWhileWorking} {
			n := counts[kindKey{k, key}]
			switch o := overlaps[key]; {
			case k == Overlap && len(o) > 0:
				out = append(out, Finding{Kind: k, Key: key, Text: a.overlapSummary(key, o)})
			case n > 0:
				out = append(out, Finding{Kind: k, Key: key, Text: summary(k, key, n, hows[key])})
			}
		}
	}
	return out
}

// summary is the verdict's line for n findings of kind k on key; how is
// how a TWO HOLDERS' first lock was lost.
func summary(k Kind, key string, n int, how string) string {
	switch k {
	case WrongOwnerDel:
		return Say("%s on %s: %d delete(s) removed a lock another session held", k.Headline(), key, n)
	case TwoHolders:
		if how == LostInRestart {
			return Say("%s of %s: %d lock(s) acknowledged to their holder vanished when the server restarted empty and were granted again; "+
				"persist every write (appendfsync always) or keep a restarted server out for longer than the TTL, and fence the resource", k.Headline(), key, n)
		}
		return Say("%s of %s: %d lock(s) acknowledged to their holder vanished in a failover and were granted again; "+
			"refuse a lock whose WAIT on the same connection answers 0, and fence the resource", k.Headline(), key, n)
	case Takeover:
		return Say("%s of %s: %d write(s) replaced or cut short a lock another session held, before it ran out", k.Headline(), key, n)
	case Overlap:
		return Say("%s on %s: %d time(s) a session took it while the holder of a lock another session had removed, replaced or cut still believed it held it", k.Headline(), key, n)
	case BlindDel:
		return Say("%s on %s: %d plain DEL(s) removed a lock re-acquired after its first holder's TTL ran out; "+
			"run it as two sessions (blind-unlock) or release with a token check (eval-release)", k.Headline(), key, n)
	}
	return Say("%s on %s: %d lock(s) ran out before their holder finished (the work, or a pause, outlasted the TTL)", ExpiredWhileWorking.Headline(), key, n)
}
