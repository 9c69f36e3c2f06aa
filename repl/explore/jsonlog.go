package explore

import "encoding/binary"

// failingLog keeps every failing schedule of a search as --json writes
// it, in a few dozen bytes each (a 3 x 5's: 50): its numbers as varints
// in one buffer, its verdict and steps as their places in a table of the
// distinct strings, which recur from one schedule to the next.
type failingLog struct {
	buf    []byte
	n      int            // schedules kept
	table  []string       // the distinct verdicts and steps
	places map[string]int // their places in table
}

// add keeps s.
func (l *failingLog) add(s jsonSchedule) {
	b := binary.AppendUvarint(l.buf, uint64(s.Number))
	b = binary.AppendVarint(b, int64(s.Status))
	b = binary.AppendUvarint(b, uint64(s.Preempts))
	b = binary.AppendUvarint(b, uint64(s.Faults))
	b = binary.AppendUvarint(b, l.place(s.Verdict))
	b = binary.AppendUvarint(b, uint64(len(s.Choices)))
	for _, c := range s.Choices {
		b = binary.AppendUvarint(b, uint64(c))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Steps)))
	for _, st := range s.Steps {
		b = binary.AppendUvarint(b, l.place(st))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Polls)))
	for _, p := range s.Polls {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(p.Step)), uint64(p.Sends))
	}
	l.buf, l.n = b, l.n+1
}

// place is the place of s in the table, added when new.
func (l *failingLog) place(s string) uint64 {
	i, ok := l.places[s]
	if !ok {
		if l.places == nil {
			l.places = map[string]int{}
		}
		i = len(l.table)
		l.places[s] = i
		l.table = append(l.table, s)
	}
	return uint64(i)
}

// each calls f with every schedule kept, in the order added, until f
// fails.
func (l *failingLog) each(f func(jsonSchedule) error) error {
	r := logReader{buf: l.buf}
	for range l.n {
		s := jsonSchedule{Number: r.int(), Status: r.signed(), Preempts: r.int(), Faults: r.int(), Verdict: l.table[r.int()]}
		s.Choices = make([]int, r.int())
		for i := range s.Choices {
			s.Choices[i] = r.int()
		}
		s.Steps = make([]string, r.int())
		for i := range s.Steps {
			s.Steps[i] = l.table[r.int()]
		}
		if n := r.int(); n > 0 {
			s.Polls = make([]jsonPoll, n)
			for i := range s.Polls {
				s.Polls[i] = jsonPoll{Step: r.int(), Sends: r.int()}
			}
		}
		if err := f(s); err != nil {
			return err
		}
	}
	return nil
}

// logReader reads a failingLog's varints in turn.
type logReader struct{ buf []byte }

func (r *logReader) int() int {
	v, n := binary.Uvarint(r.buf)
	r.buf = r.buf[n:]
	return int(v)
}

func (r *logReader) signed() int {
	v, n := binary.Varint(r.buf)
	r.buf = r.buf[n:]
	return int(v)
}
