package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryIsPrivate: the history file is readable by its owner only,
// as redis-cli's is: a new one is made 0600, an older 0644 one narrowed.
func TestHistoryIsPrivate(t *testing.T) {
	dir := t.TempDir()
	fresh, old := filepath.Join(dir, "new"), filepath.Join(dir, "old")
	if err := os.WriteFile(old, []byte("GET k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fresh, old} {
		privateFile(name)
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if perm := st.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s: mode %o, want 600", filepath.Base(name), perm)
		}
	}
	if data, _ := os.ReadFile(old); string(data) != "GET k\n" {
		t.Errorf("the old history was changed: %q", data)
	}
}
