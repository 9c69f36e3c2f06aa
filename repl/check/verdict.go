package check

import (
	"fmt"
	"slices"
)

// Kind names a finding; `expect verdict KIND` uses these names.
type Kind string

const (
	DoubleBooking    Kind = "double-booking" // more bookings than the one seat
	Overbooking      Kind = "overbooking"    // more bookings than seats, with seats > 1
	WrongOwnerDel    Kind = "wrong-owner-del"
	Overlap          Kind = "overlap"
	ExpiredWhileHeld Kind = "expired-while-held"
	BlindDel         Kind = "blind-del"
	TwoHolders       Kind = "two-holders"
	SlotOK           Kind = "slot-ok"
	AllClear         Kind = "all-clear"
)

// Kinds are the finding names, for help and for checking `expect verdict`.
var Kinds = []Kind{DoubleBooking, Overbooking, WrongOwnerDel, Overlap, ExpiredWhileHeld, BlindDel, TwoHolders, AllClear}

// Finding is one thing the run showed.
type Finding struct {
	Kind Kind
	Key  string
	Text string
}

// Bad reports whether the finding is a bug showing.
func (f Finding) Bad() bool {
	return f.Kind == DoubleBooking || f.Kind == Overbooking || f.Kind == WrongOwnerDel || f.Kind == Overlap || f.Kind == BlindDel || f.Kind == ExpiredWhileHeld || f.Kind == TwoHolders
}

// Verdict is the end of a run: each slot judged by its final length (read
// from the server: lengths[key]), then the lock findings, then all clear
// when nothing went wrong.
func (a *Annotator) Verdict(lengths map[string]int64) []Finding {
	var out []Finding
	for _, key := range a.Slots() {
		out = append(out, a.slotVerdict(a.slots[key], lengths[key])...)
	}
	out = append(out, a.lockVerdicts()...)
	bad := false
	for _, f := range out {
		bad = bad || f.Bad()
	}
	if !bad && len(out)+len(a.locks) > 0 {
		out = append(out, Finding{Kind: AllClear, Text: "all clear: no double booking, no overlapping holders, no wrong-owner delete"})
	}
	return out
}

// lockVerdicts sums the run's lock findings per lock, in the order the
// locks first showed a problem (an overlap shows when the run ends).
func (a *Annotator) lockVerdicts() []Finding {
	type kindKey struct {
		kind Kind
		key  string
	}
	counts := map[kindKey]int{}
	var keys []string
	for _, f := range a.findings {
		if !slices.Contains(keys, f.Key) {
			keys = append(keys, f.Key)
		}
		counts[kindKey{f.Kind, f.Key}]++
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
		for _, k := range []Kind{TwoHolders, WrongOwnerDel, BlindDel, Overlap, ExpiredWhileHeld} {
			if n := counts[kindKey{k, key}]; n > 0 {
				out = append(out, Finding{Kind: k, Key: key, Text: summary(k, key, n)})
			}
			if o := overlaps[key]; k == Overlap && len(o) > 0 {
				out = append(out, Finding{Kind: k, Key: key, Text: a.overlapSummary(key, o)})
			}
		}
	}
	return out
}

func summary(k Kind, key string, n int) string {
	switch k {
	case WrongOwnerDel:
		return fmt.Sprintf("WRONG-OWNER DEL on %s: %d delete(s) removed a lock another session held", key, n)
	case TwoHolders:
		return fmt.Sprintf("TWO HOLDERS of %s: %d lock(s) acknowledged to their holder vanished in a failover and were granted again; "+
			"refuse a lock whose WAIT on the same connection answers 0, and fence the resource", key, n)
	case BlindDel:
		return fmt.Sprintf("BLIND DEL on %s: %d plain DEL(s) removed a lock re-acquired after its first holder's TTL ran out; "+
			"run it as two sessions (blind-unlock) or release with a token check (eval-release)", key, n)
	}
	return fmt.Sprintf("EXPIRED WHILE WORKING on %s: %d lock(s) ran out before their holder finished (the TTL was shorter than the work)", key, n)
}
