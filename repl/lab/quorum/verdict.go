package quorum

import (
	"fmt"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
)

// AllLabs asks Findings for every `redlock up` of the run.
const AllLabs = -1

// Findings are the run's TWO HOLDERS, then its OVERLAPs, on the nodes of
// lab (AllLabs: of every lab), and how many grants there were: the one
// place either is decided (`redlock verdict` and the run's verdict both
// read it).
func (c *Checker) Findings(lab int) (found []check.Finding, grants int) {
	for i, a := range c.grants {
		if lab != AllLabs && a.lab != lab {
			continue
		}
		grants++
		for _, b := range c.grants[i+1:] {
			if a.lab != b.lab || a.key != b.key || a.tok == b.tok {
				continue
			}
			if d := minTime(a.end(), b.end()).Sub(maxTime(a.from, b.from)); d > 0 {
				first, then := inHoldOrder(a, b)
				found = append(found, check.Finding{Kind: check.TwoHolders, Key: a.key, Text: check.Say(
					"TWO HOLDERS on %s: %s (%s) and %s (%s) each held a majority, for %s at once",
					a.key, first.session, strings.Join(first.nodes, " "), then.session, strings.Join(then.nodes, " "), span(d))})
			}
		}
	}
	return append(found, c.overlaps(lab)...), grants
}

// inHoldOrder is a and b, the one that held the lock first (had every
// answer first) first: grants are recorded as their clients report them,
// which two racing clients do in either order, and a saved schedule run
// twice named the same two holders in both orders.
func inHoldOrder(a, b *grant) (first, then *grant) {
	if b.from.Before(a.from) {
		return b, a
	}
	return a, b
}

// overlaps are, for each grant and each other grant on its key, the first
// command its holder sent past its validity while the other was valid. A
// command covered by a newer grant of the holder's own does not count.
func (c *Checker) overlaps(lab int) []check.Finding {
	var out []check.Finding
	for _, g := range c.grants {
		for _, o := range c.grants {
			if (lab != AllLabs && g.lab != lab) || o.lab != g.lab || o.key != g.key || o.tok == g.tok {
				continue
			}
			if cmd, ok := c.late(g, o); ok {
				out = append(out, check.Finding{Kind: check.Overlap, Key: g.key, Text: check.Say(
					"OVERLAP on %s: %s sent %s %.2fs after its validity ended, while %s held the lock (%s)",
					g.key, g.session, ShortCommand(cmd.args), cmd.sent.Sub(g.valid).Seconds(), o.session, strings.Join(o.nodes, " "))})
			}
		}
	}
	return out
}

// late is the first command g's holder sent after g's validity and
// before g's release, while o was valid.
func (c *Checker) late(g, o *grant) (command, bool) {
	for _, cmd := range c.cmds {
		at := cmd.sent
		if cmd.session != g.session || !at.After(g.valid) || (!g.released.IsZero() && at.After(g.released)) {
			continue
		}
		if at.Before(o.from) || !at.Before(o.end()) || c.valid(g.session, g.key, at) {
			continue
		}
		return cmd, true
	}
	return command{}, false
}

// valid reports whether session had a valid grant on key at t.
func (c *Checker) valid(session, key string, t time.Time) bool {
	for _, g := range c.grants {
		if g.session == session && g.key == key && !t.Before(g.from) && t.Before(g.end()) {
			return true
		}
	}
	return false
}

// Other is the Redlock part of the run's verdict (see check.Other): the
// findings; "no two Redlock holders" when two sessions got an answer to
// their SETs on the same nodes; what was done when nothing was contested;
// and the grants the answers do not back.
func (c *Checker) Other() check.Other {
	found, grants := c.Findings(AllLabs)
	o := check.Other{Facts: found, Missing: c.missing}
	contested := false
	for _, who := range c.tried {
		contested = contested || len(who) > 1
	}
	switch {
	case contested:
		o.Claims = []string{"no two Redlock holders"}
	case c.attempts > 0:
		o.Did = []string{fmt.Sprintf("%d Redlock attempt(s), %d grant(s), by one session", c.attempts, grants)}
	}
	return o
}

// ShortCommand is a command as a verdict names it: a script's body or
// SHA1 shown as <script>, and each word as check.Say shows a value.
func ShortCommand(args []string) string {
	if len(args) > 1 && (strings.EqualFold(args[0], "EVAL") || strings.EqualFold(args[0], "EVALSHA")) {
		args = append([]string{args[0], "<script>"}, args[2:]...)
	}
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = check.Say("%s", a)
	}
	return strings.Join(words, " ")
}

// span is d as a verdict says it: 9.89s, or 4.2ms under 10ms.
func span(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
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
