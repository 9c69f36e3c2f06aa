package server_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/server"
)

// TestStartProcessParallel starts many servers at once, as the tests do,
// and checks each address reaches the server started for it (its own
// --dir), not another that took the same port first.
func TestStartProcessParallel(t *testing.T) {
	redistest.NeedProgram(t, "redis-server")
	cli := redistest.NeedProgram(t, "redis-cli")
	var wg sync.WaitGroup
	for range 30 {
		wg.Go(func() {
			dir := t.TempDir()
			p, err := server.StartProcess(context.Background(), dir)
			if err != nil {
				t.Error(err)
				return
			}
			defer p.Close()
			out, err := exec.Command(cli, "-p", strings.TrimPrefix(p.Addr(), "127.0.0.1:"), "CONFIG", "GET", "dir").Output()
			if err != nil || !strings.Contains(string(out), dir) {
				t.Errorf("%s answers as another server: %q, %v", p.Addr(), out, err)
			}
		})
	}
	wg.Wait()
}
