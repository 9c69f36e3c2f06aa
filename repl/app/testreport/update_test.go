package testreport_test

import (
	"testing"

	"github.com/locklab/locklab/repl/app/testreport"
)

func TestUpdate(t *testing.T) {
	src := "SET k v\nexpect GET k == w\n@bob expect reply 'x'\nexpect lines 'booked' -ge 3\nexpect verdict overlap\n"
	out := `x.lab:2:1: expected GET k == w, got "v"
x.lab:3:6: expected reply == "x", got "a b"
x.lab:4:1: expected lines "booked" >= 3, got 1
x.lab:5:1: expected verdict overlap, got verdict slot-ok
y.lab:2:1: expected GET k == w, got "other file"
`
	seen := testreport.Failures("x.lab", out)
	if len(seen) != 3 {
		t.Fatalf("Failures = %+v, want lines 2, 3, 4 (not the verdict, not y.lab's)", seen)
	}
	got, diff, err := testreport.Update(src, seen)
	if err != nil {
		t.Fatal(err)
	}
	want := "SET k v\nexpect GET k == v\n@bob expect reply 'a b'\nexpect lines 'booked' == 1\nexpect verdict overlap\n"
	if got != want {
		t.Errorf("Update =\n%s\nwant\n%s", got, want)
	}
	if wantDiff := "-2: expect GET k == w\n+2: expect GET k == v\n-3: @bob expect reply 'x'\n+3: @bob expect reply 'a b'\n-4: expect lines 'booked' -ge 3\n+4: expect lines 'booked' == 1\n"; diff != wantDiff {
		t.Errorf("diff =\n%s\nwant\n%s", diff, wantDiff)
	}
}
