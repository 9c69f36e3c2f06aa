package check_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/timeline"
)

// period is an overlap as a verdict line states it or a timeline draws it.
type period struct {
	key         string
	from, until float64 // seconds since the start of the run
	tol         float64 // how precisely the verdict wrote them
	sessions    string
}

var (
	overlapLine  = regexp.MustCompile(`^OVERLAP on (\S+): (\d+) time\(s\) [^:]*: (.*)$`)
	overlapSpan  = regexp.MustCompile(`^from \+([\d.]+)s to \+([\d.]+)s \((.*)\)$`)
	overlapBegin = regexp.MustCompile(`^OVERLAP on (\S+) begins: (.*) believed they held it at once$`)
	overlapEnd   = regexp.MustCompile(`^OVERLAP on (\S+) ends, after `)
	// overlapInstant is an overlap counted at an acquisition while a
	// holder whose lock was taken from it still believed, with no period
	// after it in the run (see check's state rule).
	overlapInstant = regexp.MustCompile(`^OVERLAP on \S+: \d+ time\(s\) a session took it while`)
)

// TestOverlapsAgree checks, on every recorded run, that the verdict and
// the timeline built from the same annotator's holdings tell the same
// overlaps: per lock, as many periods as the verdict counts, each
// beginning and ending at the instants the verdict writes, naming the
// same sessions, none of no length.
func TestOverlapsAgree(t *testing.T) {
	total := 0
	for _, file := range eventFiles(t) {
		s := loadScript(t, file)
		a, _ := s.annotate()
		verdict := a.Verdict(s.lengths, s.failed)
		tl := timeline.Build(runStart, nil, nil, a.Holdings(s.end()), verdict)
		stated, drawn := statedOverlaps(t, file, verdict), drawnOverlaps(t, file, tl)
		if len(stated) != len(drawn) {
			t.Errorf("%s: the verdict states %d overlap(s), the timeline draws %d:\n%v\n%v", file, len(stated), len(drawn), stated, drawn)
			continue
		}
		for i, st := range stated {
			d := drawn[i]
			if st.key != d.key || st.sessions != d.sessions || math.Abs(st.from-d.from) > st.tol || math.Abs(st.until-d.until) > st.tol || d.until <= d.from {
				t.Errorf("%s: overlap %d: the verdict says %+v, the timeline draws %+v", file, i+1, st, d)
			}
		}
		total += len(stated)
	}
	if total < 5 {
		t.Errorf("only %d overlaps in all the recorded runs: the test checks too little", total)
	}
}

// statedOverlaps reads the periods the verdict's OVERLAP lines list.
func statedOverlaps(t *testing.T, file string, verdict []check.Finding) []period {
	var out []period
	for _, f := range verdict {
		if f.Kind != check.Overlap || overlapInstant.MatchString(f.Text) {
			continue // an acquisition at the run's last instant: no period to draw
		}
		m := overlapLine.FindStringSubmatch(f.Text)
		if m == nil {
			t.Fatalf("%s: OVERLAP line not understood: %s", file, f.Text)
		}
		spans := strings.Split(m[3], "; ")
		if n, _ := strconv.Atoi(m[2]); n != len(spans) {
			t.Errorf("%s: %q counts %s but lists %d", file, f.Text, m[2], len(spans))
		}
		for _, sp := range spans {
			p := overlapSpan.FindStringSubmatch(sp)
			if p == nil {
				t.Fatalf("%s: period not understood: %q", file, sp)
			}
			from, _ := strconv.ParseFloat(p[1], 64)
			until, _ := strconv.ParseFloat(p[2], 64)
			decimals := len(p[1]) - strings.Index(p[1], ".") - 1
			out = append(out, period{key: m[1], from: from, until: until, tol: 0.5 * math.Pow10(-decimals) * 1.0001, sessions: p[3]})
		}
	}
	return out
}

// drawnOverlaps reads the periods the timeline draws, from the notes
// where each begins and ends.
func drawnOverlaps(t *testing.T, file string, tl timeline.Timeline) []period {
	var out []period
	for _, it := range tl.Items {
		if m := overlapBegin.FindStringSubmatch(it.Text); m != nil {
			out = append(out, period{key: m[1], from: it.At.Seconds(), until: -1, sessions: m[2]})
		}
		if m := overlapEnd.FindStringSubmatch(it.Text); m != nil {
			i := len(out) - 1
			for i >= 0 && out[i].key != m[1] {
				i-- // another lock's overlap began meanwhile
			}
			if i < 0 || out[i].until >= 0 {
				t.Fatalf("%s: an overlap on %s ends that did not begin", file, m[1])
			}
			out[i].until = it.At.Seconds()
		}
	}
	return out
}

// end is the last reply of the script's events.
func (s *script) end() time.Time {
	end := runStart
	for _, st := range s.steps {
		if st.isEvent() && st.event.End.After(end) {
			end = st.event.End
		}
	}
	return end
}
