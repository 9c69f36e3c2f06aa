package lines

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"$ ./book_no_lock.sh alice & ./book_no_lock.sh bob & wait\n", "./book_no_lock.sh alice & ./book_no_lock.sh bob & wait\n"},
		{"127.0.0.1:6379> GET k\n", "GET k\n"},
		{"127.0.0.1:6379[2](TX)> INCR c\n", "INCR c\n"},
		{"redis> SET k v\n", "SET k v\n"},
		{"embedded> PING\n", "PING\n"},
		{"localhost:6380> PING\n", "PING\n"},
		{"not connected> PING\n", "PING\n"},
		// Not prompts: left alone.
		{"$HOME\n", "$HOME\n"},
		{"echo '$ x'\n", "echo '$ x'\n"},
		{"SET k '> v'\n", "SET k '> v'\n"},
		// A continued line is data, even if it looks like a prompt.
		{"$ EVAL \"return 1\" \\\n$ 0\n", "EVAL \"return 1\" \\\n$ 0\n"},
		{"SET k 'a\n$ b'\n", "SET k 'a\n$ b'\n"},
		// Each complete line of a block loses its prompt.
		{"$ SET k v\n$ GET k\n", "SET k v\nGET k\n"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzNormalize checks that normalising never panics, only ever removes
// text from the front of lines, and is idempotent for prompt-free input.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		"$ SET k v\n", "127.0.0.1:6379> GET k\n", "redis> PING", "EVAL \\\n$ x\n",
		"SET k 'a\n$ b'\n", "if true; then\n$ echo\nfi\n", "$ $ $ x", "\\", "'",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := Normalize(src)
		if len(got) > len(src) {
			t.Fatalf("Normalize(%q) = %q grew", src, got)
		}
		if strings.Count(got, "\n") != strings.Count(src, "\n") {
			t.Fatalf("Normalize(%q) = %q changed the line count", src, got)
		}
		if !promptPrefix().MatchString(src) && !strings.Contains(src, "\n") && got != src {
			t.Fatalf("Normalize(%q) = %q changed a line with no prompt", src, got)
		}
	})
}

// TestEntryIsTheCurrentOne: Entry (the history's line) is the entry just
// read, prompt and all dropped, whether or not a line could hold a
// prompt; a continued line is part of its entry.
func TestEntryIsTheCurrentOne(t *testing.T) {
	f := NewFeed(From(strings.NewReader("SET k v\n$ HELLO 2\nGET k\nEVAL \\\n  x\n")), nil)
	f.Restart(NewParser())
	var got []string
	for _, err := range f.Parser.InteractiveSeq(f) {
		if err != nil {
			t.Fatal(err)
		}
		if !f.Parser.Incomplete() {
			got = append(got, f.Entry())
		}
	}
	want := []string{"SET k v\n", "HELLO 2\n", "GET k\n", "EVAL \\\n  x\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("entries %q, want %q", got, want)
	}
}
