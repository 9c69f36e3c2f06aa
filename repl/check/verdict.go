package check

import "fmt"

// Kind names a finding; `expect verdict KIND` uses these names.
type Kind string

const (
	DoubleBooking    Kind = "double-booking"
	WrongOwnerDel    Kind = "wrong-owner-del"
	Overlap          Kind = "overlap"
	ExpiredWhileHeld Kind = "expired-while-held"
	BlindDel         Kind = "blind-del"
	SlotOK           Kind = "slot-ok"
	AllClear         Kind = "all-clear"
)

// Kinds are the finding names, for help and for checking `expect verdict`.
var Kinds = []Kind{DoubleBooking, WrongOwnerDel, Overlap, ExpiredWhileHeld, BlindDel, AllClear}

// Finding is one thing the run showed.
type Finding struct {
	Kind Kind
	Key  string
	Text string
}

// Bad reports whether the finding is a bug showing.
func (f Finding) Bad() bool {
	return f.Kind == DoubleBooking || f.Kind == WrongOwnerDel || f.Kind == Overlap || f.Kind == BlindDel
}

// Verdict is the end of a run: each slot judged by its final length (read
// from the server: lengths[key]), then the lock findings, then all clear
// when nothing went wrong.
func (a *Annotator) Verdict(lengths map[string]int64) []Finding {
	var out []Finding
	for _, key := range a.Slots() {
		out = append(out, a.slotVerdict(a.slots[key], lengths[key])...)
	}
	counts := map[Kind]int{}
	for _, f := range a.findings {
		counts[f.Kind]++
	}
	for _, k := range []Kind{WrongOwnerDel, BlindDel, Overlap, ExpiredWhileHeld} {
		if counts[k] > 0 {
			out = append(out, Finding{Kind: k, Text: summary(k, counts[k])})
		}
	}
	bad := false
	for _, f := range out {
		bad = bad || f.Bad()
	}
	if !bad && len(out)+len(a.locks) > 0 {
		out = append(out, Finding{Kind: AllClear, Text: "all clear: no double booking, no overlapping holders, no wrong-owner delete"})
	}
	return out
}

func summary(k Kind, n int) string {
	switch k {
	case WrongOwnerDel:
		return fmt.Sprintf("WRONG-OWNER DEL: %d delete(s) removed a lock another session held", n)
	case BlindDel:
		return fmt.Sprintf("BLIND DEL: %d plain DEL(s) removed a lock re-acquired after its first holder's TTL ran out; "+
			"run it as two sessions (blind-unlock) or release with a token check (eval-release)", n)
	case Overlap:
		return fmt.Sprintf("OVERLAP: %d time(s) two sessions were inside the critical section at once", n)
	}
	return fmt.Sprintf("%d lock(s) expired while their holder was still working", n)
}
