package labgen

import (
	"regexp"
	"strconv"
)

// Shrink makes l smaller while fails(l) holds, and returns the smallest
// lab it found: it drops whole sessions, then single lines, then shortens
// each duration (a sleep, a TTL, a macro's --work) to the shorter ones
// labs are drawn from, over and over until no change keeps it failing.
// fails must be deterministic (explore's schedules are).
func Shrink(l Lab, fails func(Lab) bool) Lab {
	for changed := true; changed; {
		changed = false
		for _, try := range candidates(l) {
			if fails(try) {
				l, changed = try, true
				break
			}
		}
	}
	return l
}

// candidates are the labs one step smaller than l, the biggest steps
// first.
func candidates(l Lab) []Lab {
	var out []Lab
	for i := range l.Sessions {
		if len(l.Sessions) > 1 {
			c := l.clone()
			c.Sessions = append(c.Sessions[:i], c.Sessions[i+1:]...)
			out = append(out, c)
		}
	}
	for i, s := range l.Sessions {
		for j := range s.Lines {
			c := l.clone()
			c.Sessions[i].Lines = append(c.Sessions[i].Lines[:j], c.Sessions[i].Lines[j+1:]...)
			out = append(out, c)
		}
	}
	for i, s := range l.Sessions {
		for j, line := range s.Lines {
			for _, shorter := range shortenings(line) {
				c := l.clone()
				c.Sessions[i].Lines[j] = shorter
				out = append(out, c)
			}
		}
	}
	return out
}

// duration is a number of milliseconds in a line: "300ms", "PX 300",
// "PEXPIRE lock:a 300"; EX and EXPIRE's seconds are left as they are.
var duration = regexp.MustCompile(`(\d+)ms\b|(PX |PEXPIRE \S+ )(\d+)\b`)

// shortenings are line with one of its durations made shorter: each
// shorter value labs draw from.
func shortenings(line string) []string {
	var out []string
	for _, m := range duration.FindAllStringSubmatchIndex(line, -1) {
		start, end := m[2], m[3]
		if start < 0 {
			start, end = m[6], m[7]
		}
		n, _ := strconv.Atoi(line[start:end])
		for _, v := range []int{10, 50, 100, 200, 300, 500, 800} {
			if v < n {
				out = append(out, line[:start]+strconv.Itoa(v)+line[end:])
			}
		}
	}
	return out
}
