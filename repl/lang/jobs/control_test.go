package jobs

import (
	"context"
	"testing"
)

// TestFind: job specs as bash reads them, on the lab's table: %N, the
// session's name, the start of the command line, %% and %+ (the last),
// %- (the one before, or the only one).
func TestFind(t *testing.T) {
	j := New(0)
	for i, name := range []string{"alice", "bob", "job3", "bob"} {
		jb := &job{id: i + 1, n: i + 1, name: name, text: "book " + name, done: make(chan struct{})}
		jb.ctx, jb.cancel = context.WithCancel(context.Background())
		j.table.live = append(j.table.live, jb)
	}
	for _, tt := range []struct {
		spec string
		n    int // 0: none
		msg  string
	}{
		{"%1", 1, ""}, {"%4", 4, ""}, {"%alice", 1, ""}, {"%book job", 3, ""},
		{"%%", 4, ""}, {"%+", 4, ""}, {"%", 4, ""}, {"%-", 3, ""},
		{"%9", 0, "kill: %9: no such job"},
		{"%bob", 0, "kill: %bob: ambiguous job spec (2 jobs match: name one by its number)"},
		{"1234", 0, "kill: 1234: " + noPIDs},
	} {
		jb, msg := j.find("kill", tt.spec)
		if got := 0; jb != nil {
			got = jb.n
			if got != tt.n {
				t.Errorf("%s: job %d, want %d", tt.spec, got, tt.n)
			}
		} else if tt.n != 0 || msg != tt.msg {
			t.Errorf("%s: none (%q), want job %d (%q)", tt.spec, msg, tt.n, tt.msg)
		}
	}
	j.table.live = j.table.live[:1]
	if jb, _ := j.find("kill", "%-"); jb == nil || jb.n != 1 {
		t.Errorf("%%- with one job: %v, want that job", jb)
	}
}

// TestKillArgs: the signals that end a job, by name or number, as bash
// spells them; any other is refused, and no job spec is a usage error.
func TestKillArgs(t *testing.T) {
	for _, tt := range []struct {
		args []string
		sig  int // 0: an error
	}{
		{[]string{"%1"}, 15}, {[]string{"-9", "%1"}, 9}, {[]string{"-KILL", "%1"}, 9},
		{[]string{"-s", "INT", "%1"}, 2}, {[]string{"-SIGTERM", "%1"}, 15}, {[]string{"-int", "%1"}, 2},
		{[]string{"--", "%1"}, 15}, {[]string{"-STOP", "%1"}, 0}, {[]string{"-1", "%1"}, 0},
		{[]string{"-l"}, 0}, {nil, 0}, {[]string{"-9"}, 0},
	} {
		sig, specs, err := killArgs(tt.args)
		if (err == nil) != (tt.sig != 0) || sig != tt.sig || (err == nil && len(specs) != 1) {
			t.Errorf("killArgs(%q) = %d, %q, %v; want signal %d", tt.args, sig, specs, err, tt.sig)
		}
	}
}
