package redlock

import (
	"fmt"
	"strings"
	"time"
)

// grant is an acquisition that got a majority: valid from its start to
// its start plus its validity, unless released before.
type grant struct {
	holder, key, token string
	nodes              []string
	from, valid        time.Time // valid: when its validity ended
	released           time.Time // zero until released
}

// end is when the grant stopped being valid: its validity's end, or its
// release if that came first.
func (g *grant) end() time.Time {
	if !g.released.IsZero() && g.released.Before(g.valid) {
		return g.released
	}
	return g.valid
}

// remember keeps a granted attempt for the verdict, and its key for
// status.
func (l *Lab) remember(a *Attempt, start time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.key = a.Key
	if a.Granted {
		l.grants = append(l.grants, &grant{holder: a.Holder, key: a.Key, token: a.Token,
			nodes: a.Nodes(), from: start, valid: start.Add(a.Validity)})
	}
}

// ended marks the grants of token on key as released at now.
func (l *Lab) ended(key, token string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, g := range l.grants {
		if g.key == key && g.token == token && g.released.IsZero() && g.from.Before(now) {
			g.released = now
		}
	}
}

// Finding is one pair of grants on the same key, to different tokens,
// valid at the same time: two holders.
type Finding struct {
	Key                 string
	First, Second       string // the holders, in the order they were granted
	FirstOn, SecondOn   []string
	Overlap             time.Duration
	FirstTok, SecondTok string
}

func (f Finding) String() string {
	return fmt.Sprintf("TWO HOLDERS on %s: %s (%s) and %s (%s) each held a majority, for %.2fs at once",
		f.Key, f.First, strings.Join(f.FirstOn, " "), f.Second, strings.Join(f.SecondOn, " "), f.Overlap.Seconds())
}

// Verdict is every pair of grants that overlapped, and how many grants
// there were.
func (l *Lab) Verdict() ([]Finding, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Finding
	for i, a := range l.grants {
		for _, b := range l.grants[i+1:] {
			if a.key != b.key || a.token == b.token {
				continue
			}
			if d := minTime(a.end(), b.end()).Sub(maxTime(a.from, b.from)); d > 0 {
				out = append(out, Finding{Key: a.key, First: a.holder, Second: b.holder,
					FirstOn: a.nodes, SecondOn: b.nodes, Overlap: d, FirstTok: a.token, SecondTok: b.token})
			}
		}
	}
	return out, len(l.grants)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
