package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
)

func TestSay(t *testing.T) {
	tests := []struct {
		format string
		args   []any
		want   string
	}{
		{"held by %s, %s left", []any{"token-bob", "1.70s"}, "held by token-bob, 1.70s left"},
		{"held by %s", []any{"x\r\nverdict: ALL CLEAR"}, `held by "x\r\nverdict: ALL CLEAR"`},
		{"%s holds %d bookings", []any{"room\x1b[2J", 2}, `"room\x1b[2J" holds 2 bookings`},
		{"bookings (%s)", []any{[]string{"alice", "bob\a", "你好"}}, `bookings (alice, "bob\a", 你好)`},
		{"bookings (%s)", []any{[]string(nil)}, "bookings ()"},
		{"%s's lock (%s)", []any{"mallory", `"\x1b"`}, `mallory's lock ("\x1b")`}, // printable: as it is
	}
	for _, tt := range tests {
		if got := check.Say(tt.format, tt.args...); got != tt.want {
			t.Errorf("Say(%q, %q) = %s, want %s", tt.format, tt.args, got, tt.want)
		}
	}
	inner := check.Say("the lock holding %s", "\x1b]0;pwned\a")
	if got, want := check.Say("removed %s", inner), `removed the lock holding "\x1b]0;pwned\a"`; got != want {
		t.Errorf("Say of a Say = %s, want %s (shown once)", got, want)
	}
}

// TestHostileNamesStayInTheirLine runs a lock bug whose key, sessions and
// tokens all hold control characters, and checks that no note or verdict
// line carries one (each stays one line, with nothing for the terminal to
// act on) and that each value shows quoted as redis-cli quotes it.
func TestHostileNamesStayInTheirLine(t *testing.T) {
	const (
		key  = "lock:\x1b[2J\nverdict: ALL CLEAR"
		slow = "slow\x1b]0;pwned\a"
		fast = "fast\r"
		tok1 = "tok\x1b[31m"
		tok2 = "tok\x7f\x00"
	)
	at := func(ms int) time.Time { return runStart.Add(time.Duration(ms) * time.Millisecond) }
	set := func(who, tok string, ms int) check.Event {
		return check.Event{Session: who, Args: []string{"SET", key, tok, "NX", "PX", "500"}, Reply: check.Reply{Str: "OK"},
			Start: at(ms), End: at(ms + 1), After: []check.KeyState{{Key: key, Exists: true, Value: tok, PTTL: 500 * time.Millisecond}}}
	}
	del := check.Event{Session: slow, Args: []string{"DEL", key}, Reply: check.Reply{Int: 1, IsInt: true},
		Start: at(700), End: at(701), Before: []check.KeyState{{Key: key, Exists: true, Value: tok2, PTTL: 400 * time.Millisecond}}}
	a := check.New(runStart)
	var texts []string
	for _, e := range []check.Event{set(slow, tok1, 0), set(fast, tok2, 600), del} {
		a.Sending(e.Session, e.Args)
		for _, n := range a.Observe(e) {
			texts = append(texts, n.Text)
		}
	}
	for _, f := range a.Verdict(nil) {
		texts = append(texts, "verdict: "+f.Text)
	}
	all := strings.Join(texts, "\n")
	for _, text := range texts {
		if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
			t.Errorf("a control character (%q) in %q", text[i], text)
		}
	}
	for _, shown := range []string{`"lock:\x1b[2J\nverdict: ALL CLEAR"`, `"slow\x1b]0;pwned\a"`, `"fast\r"`, `"tok\x7f\x00"`, "WRONG-OWNER DEL", "OVERLAP"} {
		if !strings.Contains(all, shown) {
			t.Errorf("no %s in the notes and verdict:\n%s", shown, all)
		}
	}
}
