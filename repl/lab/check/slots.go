package check

import (
	"cmp"
	"slices"
)

// slot is a list that sessions check (LLEN) and then book (RPUSH): the
// lesson's check-then-act.
type slot struct {
	key       string
	seats     int64
	told      bool             // a macro said how many seats it has: it is booked on
	saw       map[string]int64 // what each session's last LLEN answered
	checkedBy []string         // the sessions that checked it, in order
	bookings  []booking        // since the list was last deleted
	peak      int64            // the longest the list got since then, as RPUSH answered
	length    int64            // its length as the server last showed it
	shown     bool             // ... once it has: a macro names a slot before the run reads it
	over      *Finding         // the double booking of the current bookings, once there is one
	overs     []*Finding
}

type booking struct {
	session, value string
	saw            int64
	checked        bool
	// at is where the server put it: the list's length RPUSH answered,
	// less the values pushed after it by the same command.
	at int64
}

// SetSeats says how many bookings a slot may hold (1 unless said).
func (a *Annotator) SetSeats(key string, seats int64) {
	s := a.slotFor(key)
	s.seats, s.told = seats, true
}

func (a *Annotator) slotFor(key string) *slot {
	s := a.slots[key]
	if s == nil {
		s = &slot{key: key, seats: 1, saw: map[string]int64{}}
		a.slots[key] = s
		a.slotOrder = append(a.slotOrder, key)
	}
	return s
}

func (a *Annotator) onCheck(e Event) []Note {
	if len(e.Args) == 2 && e.Reply.IsInt {
		s := a.slotFor(e.Args[1])
		s.saw[e.Session], s.length, s.shown = e.Reply.Int, e.Reply.Int, true
		if !slices.Contains(s.checkedBy, e.Session) {
			s.checkedBy = append(s.checkedBy, e.Session)
		}
	}
	return nil
}

// onBook records a booking on a slot: one a session checked, was told
// the seats of, or the probe read as one. RPUSH answers the list's new
// length: when that passes the seats, the server itself says the slot is
// double booked.
func (a *Annotator) onBook(e Event) []Note {
	if len(e.Args) < 3 || !e.Reply.IsInt {
		return nil
	}
	s := a.slots[e.Args[1]]
	if st, ok := e.after(e.Args[1]); s == nil && ok && st.Slot {
		s = a.slotFor(e.Args[1])
	}
	if s == nil {
		return nil
	}
	s.length, s.shown = e.Reply.Int, true
	saw, checked := s.saw[e.Session]
	values := e.Args[2:]
	for i, v := range values {
		at := e.Reply.Int - int64(len(values)-1-i)
		s.bookings = append(s.bookings, booking{session: e.Session, value: v, saw: saw, checked: checked, at: at})
	}
	s.peak = max(s.peak, e.Reply.Int)
	if s.peak <= s.seats {
		return nil
	}
	// Events of concurrent sessions may arrive in any order: the
	// finding is rewritten with every booking of this epoch.
	a.doubleBooked(s, s.peak)
	if e.Reply.Int <= s.seats {
		return nil
	}
	text := Say("%s now holds %d bookings for %d seat(s)", s.key, e.Reply.Int, s.seats)
	if checked {
		text += Say(": %s saw count=%d before booking", e.Session, saw)
	}
	return []Note{{e.Session, Bad, text}}
}

// doubleBooked records (or updates) the double booking (one seat) or
// overbooking (more seats) of the slot's current bookings. The bidders are
// listed in the order the server executed their pushes, as LRANGE lists
// them, whatever order their replies came in.
func (a *Annotator) doubleBooked(s *slot, count int64) {
	bookings := slices.Clone(s.bookings)
	slices.SortStableFunc(bookings, func(x, y booking) int { return cmp.Compare(x.at, y.at) })
	var who []string
	allSawRoom := true
	for _, b := range bookings {
		who = append(who, b.value)
		allSawRoom = allSawRoom && b.checked && b.saw < s.seats
	}
	kind, next := DoubleBooking, "a second"
	if s.seats > 1 {
		kind, next = Overbooking, "another"
	}
	text := Say("%s: %s held %d bookings (%s) for %d seat(s)", kind.Headline(), s.key, count, who, s.seats)
	if allSawRoom {
		text += Say(": each bidder checked the count, saw room, and booked; nothing stopped %s bidder between its check and its booking", next)
	}
	if s.over == nil {
		s.over = &Finding{Key: s.key}
		s.overs = append(s.overs, s.over)
	}
	s.over.Kind, s.over.Text = kind, text
}

// resetSlot forgets a slot's bookings when its list is deleted.
func (a *Annotator) resetSlot(key string) {
	if s := a.slots[key]; s != nil {
		s.bookings, s.over, s.peak, s.length, s.shown = nil, nil, 0, 0, true
	}
}

// slotState judges what a command other than a push did to a slot: a
// list emptied is reset; one that grew past its seats, whatever command
// grew it (LMOVE, COPY, a script ...), is booked that many times by the
// sender, and double booked.
func (a *Annotator) slotState(e Event, before, after KeyState) []Note {
	if n := e.name(); n == "RPUSH" || n == "LPUSH" {
		return nil // onBook read its reply
	}
	if after.Len == 0 && before.Len > 0 {
		a.resetSlot(after.Key)
		return nil
	}
	s := a.slotFor(after.Key)
	s.length, s.shown = after.Len, true
	if after.Len <= before.Len {
		return nil
	}
	for at := before.Len + 1; at <= after.Len; at++ {
		s.bookings = append(s.bookings, booking{session: e.Session, value: Say("%s's %s", e.Session, e.name()), at: at})
	}
	s.peak = max(s.peak, after.Len)
	if s.peak <= s.seats {
		return nil
	}
	a.doubleBooked(s, s.peak)
	return []Note{{e.Session, Bad, Say("%s now holds %d bookings for %d seat(s)", s.key, after.Len, s.seats)}}
}

// Slots lists the slots booked in this run, whose final length the caller
// reads from the server for Verdict.
func (a *Annotator) Slots() []string {
	var out []string
	for _, k := range a.slotOrder {
		if s := a.slots[k]; len(s.bookings) > 0 || len(s.overs) > 0 {
			out = append(out, k)
		}
	}
	return out
}

// slotVerdict is every double booking the slot went through, or, when it
// had none, its final count against its seats.
func (a *Annotator) slotVerdict(s *slot, length int64) []Finding {
	var out []Finding
	for _, f := range s.overs {
		out = append(out, *f)
	}
	switch {
	case len(out) > 0:
	case length < 0:
		out = append(out, Finding{Kind: SlotOK, Key: s.key, Text: Say("%s: bookings unknown (its length could not be read); %d seat(s)", s.key, s.seats)})
	default:
		out = append(out, Finding{Kind: SlotOK, Key: s.key, Text: Say("%s: %d booking(s) for %d seat(s)", s.key, length, s.seats)})
	}
	return out
}
