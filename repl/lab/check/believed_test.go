package check_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
)

// TestBelieved: what the annotator believes the server holds after each
// recorded run, for the runs of the state rule: the lock's holder and
// deadline as the server's answers put them, or nothing, and each slot's
// length.
func TestBelieved(t *testing.T) {
	at := func(secs float64) time.Time { return runStart.Add(time.Duration(secs * float64(time.Second))) }
	for file, want := range map[string]string{
		// bob's SET replaced ta with tb at +0.801 for 5 s; alice's release kept it.
		"takeover-set": fmt.Sprint([]check.LockBelief{{Key: "lock:a", Token: "tb", Held: true, Deadline: at(5.801)}}),
		// bob's GETDEL removed alice's lock; bob's SET NX took it at +0.901.
		"removed-by-getdel": fmt.Sprint([]check.LockBelief{{Key: "lock:a", Token: "tb", Held: true, Deadline: at(5.901)}}),
		// alice cut her own lock to 10 ms at +0.801.
		"extend-shortens": fmt.Sprint([]check.LockBelief{{Key: "lock:a", Token: "ta", Held: true, Deadline: at(0.811)}}),
		// alice's compare-and-delete with t-carol kept her lock.
		"release-wrong-token": fmt.Sprint([]check.LockBelief{{Key: "lock:b", Token: "t-alice", Held: true, Deadline: at(5.001)}}),
		// alice's lock, kept by her wrong-token release, then cut by bob to 10 ms at +0.201.
		"cut-after-kept": fmt.Sprint([]check.LockBelief{{Key: "lock:b", Token: "t-alice", Held: true, Deadline: at(0.211)}}),
		// bob released his own lock: nothing held.
		"release-get-del": fmt.Sprint([]check.LockBelief{{Key: "lock:a"}}),
	} {
		a, _ := loadScript(t, "testdata/"+file+".events").annotate()
		if got := fmt.Sprint(a.BelievedLocks()); got != want {
			t.Errorf("%s: BelievedLocks() = %s; want %s", file, got, want)
		}
	}
	// main's DEL reset a slot: a slot, not a lock (the oracle found the
	// checker believing "no lock" where the server held a list).
	a, _ := loadScript(t, "testdata/del-slot.events").annotate()
	if got, want := fmt.Sprint(a.BelievedLocks(), a.BelievedSlots()), "[] [{room:x:bookings 1}]"; got != want {
		t.Errorf("del-slot: BelievedLocks(), BelievedSlots() = %s; want %s", got, want)
	}
	// room:a was named, then read: no belief until its LLEN.
	s := loadScript(t, "testdata/slot-named.events")
	s.steps = s.steps[:2] // the seats and the SET
	a, _ = s.annotate()
	if got := a.BelievedSlots(); len(got) != 0 {
		t.Errorf("slot-named, before its LLEN: BelievedSlots() = %v; want none", got)
	}
	a, _ = loadScript(t, "testdata/slot-named.events").annotate()
	if got, want := fmt.Sprint(a.BelievedSlots()), "[{room:a 1}]"; got != want {
		t.Errorf("slot-named: BelievedSlots() = %s; want %s", got, want)
	}
	// bob's FLUSHDB emptied room:a unread: no belief until alice's LLEN.
	s = loadScript(t, "testdata/flushdb-unread-slot.events")
	s.steps = s.steps[:3] // the seats, the RPUSH, the FLUSHDB
	a, _ = s.annotate()
	if got := a.BelievedSlots(); len(got) != 0 {
		t.Errorf("flushdb-unread-slot, before the LLEN: BelievedSlots() = %v; want none", got)
	}
	a, _ = loadScript(t, "testdata/flushdb-unread-slot.events").annotate()
	if got, want := fmt.Sprint(a.BelievedSlots()), "[{room:a 0}]"; got != want {
		t.Errorf("flushdb-unread-slot: BelievedSlots() = %s; want %s", got, want)
	}
	// bob's fenced write booked the slot; alice's stale one did not.
	a, _ = loadScript(t, "testdata/fenced-book.events").annotate()
	if got, want := fmt.Sprint(a.BelievedSlots()), "[{room:2pm:bookings 1}]"; got != want {
		t.Errorf("fenced-book: BelievedSlots() = %s; want %s", got, want)
	}
	a, _ = loadScript(t, "testdata/slot-no-lock.events").annotate()
	if got, want := a.BelievedSlots(), []check.SlotBelief{{Key: "room:x:bookings", Bookings: 4}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("slot-no-lock: BelievedSlots() = %v; want %v", got, want)
	}
}
