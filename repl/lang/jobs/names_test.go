package jobs

import "testing"

func TestJobName(t *testing.T) {
	for _, c := range []struct {
		what string
		line []string
		want string
	}{
		{"./book_no_lock.sh alice & shows as alice (the lesson's bidder)", []string{"./book_no_lock.sh", "alice"}, "alice"},
		{"./x.sh & shows as x (the script's name)", []string{"./x.sh"}, "x"},
		{"book carol & shows as carol (a bidder's macro)", []string{"book", "carol"}, "carol"},
		{"@bob GET k & shows as bob", []string{"@bob", "GET", "k"}, "bob"},
		{"run x.lab & shows as x (the file's name)", []string{"run", "x.lab"}, "x"},
		{"run $f & is named at run time, not \"run\"", []string{"run"}, ""},
		{"bash ./b.sh dave & shows as dave (the script's bidder)", []string{"bash", "./b.sh", "dave"}, "dave"},
		{"GET k & names no session", []string{"GET", "k"}, ""},
	} {
		t.Run(c.what, func(t *testing.T) {
			if got := JobName(c.line); got != c.want {
				t.Errorf("JobName(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
