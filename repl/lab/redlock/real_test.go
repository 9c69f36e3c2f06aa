package redlock_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/redlock"
)

// TestRealNodes: redis-server nodes grant as embedded ones do; a crashed
// node restarts empty; a clock jump is refused; Down stops every process
// and removes the folder.
func TestRealNodes(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	l := &redlock.Lab{}
	err := l.Up(context.Background(), 3, clock.Real{}, redlock.Real)
	redistest.SkipIfNoRedis(t, err)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Down)
	if a := acquire(t, l, "alice", "a1"); !a.Granted || nodes(a) != "A B C" {
		t.Fatalf("alice: granted %v on %q, want A B C", a.Granted, nodes(a))
	}
	if err := l.Crash("C"); err != nil {
		t.Fatal(err)
	}
	if err := l.Restart("C", 0, clock.Real{}, nil); err != nil {
		t.Fatal(err)
	}
	if a := acquire(t, l, "bob", "b1"); a.Granted || nodes(a) != "C" {
		t.Fatalf("bob after C restarted: granted %v on %q, want C alone (empty)", a.Granted, nodes(a))
	}
	if _, err := l.Jump("A", time.Second); err == nil || !strings.Contains(err.Error(), "redis-server process") {
		t.Errorf("clock jump on a real node: %v, want a refusal", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "locklab-redlock-*"))
	pids := l.PIDs()
	if len(dirs) != 1 || len(pids) != 3 {
		t.Fatalf("folders %v, PIDs %v: want one folder, three PIDs", dirs, pids)
	}
	l.Down()
	for _, pid := range pids {
		if server.Alive(pid) {
			t.Errorf("redis-server %d still runs after Down", pid)
		}
	}
	if _, err := os.Stat(dirs[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("folder %s after Down: %v, want it gone", dirs[0], err)
	}
}
