package labgen

import (
	"bytes"
	"strings"
	"testing"
)

// TestGenerateSeeded: a seed gives the same lab every time, and another
// seed another lab, of 2 or 3 sessions.
func TestGenerateSeeded(t *testing.T) {
	a, b := Generate(7, Config{}), Generate(7, Config{})
	if !bytes.Equal(a.Text(), b.Text()) {
		t.Fatalf("seed 7 made two labs:\n%s\n%s", a.Text(), b.Text())
	}
	if bytes.Equal(a.Text(), Generate(8, Config{}).Text()) {
		t.Fatal("seeds 7 and 8 made the same lab")
	}
	for seed := range uint64(200) {
		l := Generate(seed, Config{})
		if n := len(l.Sessions); n < 2 || n > 3 {
			t.Fatalf("seed %d: %d sessions", seed, n)
		}
	}
}

// TestGenerateOps: a Config's operations are the only ones drawn.
func TestGenerateOps(t *testing.T) {
	for seed := range uint64(50) {
		for _, s := range Generate(seed, Config{Ops: []Op{Sleep, LLen}}).Sessions {
			for _, line := range s.Lines {
				if !strings.HasPrefix(line, "sleep ") && !strings.HasPrefix(line, "LLEN ") {
					t.Fatalf("seed %d: %q is neither a sleep nor an LLEN", seed, line)
				}
			}
		}
	}
}

// TestShrink: the lab shrinks to the one line that makes it fail, with
// its duration as short as it still fails.
func TestShrink(t *testing.T) {
	l := Lab{Sessions: []Session{
		{Name: "alice", Lines: []string{"SET lock:a t-alice NX PX 800", "sleep 500ms", "DEL lock:a"}},
		{Name: "bob", Lines: []string{"sleep 1200ms", "PEXPIRE lock:b 300"}},
	}}
	fails := func(l Lab) bool { // fails while it holds a PEXPIRE of at least 100 ms
		for _, s := range l.Sessions {
			for _, line := range s.Lines {
				if strings.HasPrefix(line, "PEXPIRE") && !strings.HasSuffix(line, " 10") && !strings.HasSuffix(line, " 50") {
					return true
				}
			}
		}
		return false
	}
	got := Shrink(l, fails)
	want := "bob() {\n  PEXPIRE lock:b 100\n}\nbob bob &\nwait\n"
	if !strings.HasSuffix(string(got.Text()), want) || len(got.Sessions) != 1 {
		t.Fatalf("shrunk to:\n%s\nwant it to end:\n%s", got.Text(), want)
	}
}
