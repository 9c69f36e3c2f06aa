package flags

import (
	"strings"
	"testing"
)

// FuzzParse: whatever the words, Parse never panics; its error is one
// line that starts with the word's name and ends with its one hint; what
// it reads as positional arguments are words of the call; Check, every
// word known, agrees; and with no word known, Check refuses only the
// count of words.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"alice t1 --ttl 2s", "alice t1 --work=300", "-- --x", "--release", "up --nodes 3", "--redlock 3 --seed=-1", "x.lab a -- b"} {
		f.Add(seed)
	}
	specs := []*Spec{bookLocked, redlock, load, explore, pause}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, runTime) {
			t.Skip("no word a script writes holds a NUL byte: Check's mark for a word known at run time")
		}
		args := strings.Fields(line)
		for _, s := range specs {
			p, err := s.Parse(args)
			checked := s.Check(args, make([]bool, len(args)))
			known := make([]bool, len(args))
			for i := range known {
				known[i] = true
			}
			if errText(s.Check(args, known)) != errText(err) {
				t.Fatalf("%s %q: Check says %v, Parse %v", s.Name, line, s.Check(args, known), err)
			}
			if checked != nil && !strings.Contains(checked.Error(), ": missing ") && !strings.Contains(checked.Error(), ": unexpected argument ") {
				t.Fatalf("%s %q: nothing known, yet Check refused: %v", s.Name, line, checked)
			}
			if err != nil {
				msg := err.Error()
				if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, s.Name) || !oneHint(msg) {
					t.Fatalf("%s %q: error %q is not one line naming the word, with one hint", s.Name, line, msg)
				}
				continue
			}
			for _, a := range p.Args {
				if !strings.Contains(line, a) {
					t.Fatalf("%s %q: read %q, which is not in the call", s.Name, line, a)
				}
			}
		}
	})
}
