package failover

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/server"
)

// helperEnv makes the test binary a helper process: it starts a topology,
// prints its PIDs and ports, then dies without Close, as the mode says.
const helperEnv = "LOCKLAB_TOPOLOGY_HELPER"

func helperMain(mode string) {
	top, err := Up(context.Background(), os.Getenv(helperEnv+"_DIR"))
	if errors.Is(err, server.ErrNoRedisServer) {
		fmt.Println("no-redis-server")
		os.Exit(0)
	}
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	p, r := top.PIDs()
	if !Alive(p) || !Alive(r) {
		fmt.Println("error: children not running")
		os.Exit(2)
	}
	fmt.Printf("children %d %d %d %d\n", p, r, top.Primary.Port, top.Replica.Port)
	switch mode {
	case "exit":
		os.Exit(0)
	case "panic":
		panic("a test that blew up")
	default: // "block": the parent kills us
		select {}
	}
}

// children are a helper's servers.
type children struct{ pids, ports []int }

// runHelper starts the test binary as a helper in mode and reads the
// PIDs and ports of its servers.
func runHelper(t *testing.T, mode string) (*exec.Cmd, children) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperEnv+"_DIR="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if mode == "panic" {
		cmd.Stderr = nil // the panic's stack is expected
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %v", err)
	}
	fields := strings.Fields(line)
	if len(fields) > 0 && fields[0] == "no-redis-server" {
		cmd.Wait()
		redistest.SkipIfNoRedis(t, server.ErrNoRedisServer)
		t.Fatal(server.ErrNoRedisServer)
	}
	if len(fields) != 5 || fields[0] != "children" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}
	var c children
	for i, f := range fields[1:] {
		n, _ := strconv.Atoi(f)
		if i < 2 {
			c.pids = append(c.pids, n)
		} else {
			c.ports = append(c.ports, n)
		}
	}
	return cmd, c
}

// checkGone fails the test unless every child is gone within limit.
// (Their ports are no proof: other tests may reuse them at once.)
func checkGone(t *testing.T, pids []int, limit time.Duration) {
	t.Helper()
	for _, pid := range pids {
		if pid <= 0 {
			t.Errorf("no PID")
			continue
		}
		if !gone(pid, limit) {
			t.Errorf("redis-server %d is still running", pid)
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill() // don't leave it behind
			}
		}
	}
}

func TestCloseLeavesNoChildren(t *testing.T) {
	t.Parallel()
	top := start(t)
	p, r := top.PIDs()
	if !Alive(p) || !Alive(r) {
		t.Fatalf("PIDs %d %d: not running", p, r)
	}
	top.Close()
	top.Close() // idempotent
	// Close waits for each exit: nothing is left at once.
	checkGone(t, []int{p, r}, 0)
	if err := stoppedListening(top.Proxy); err != nil {
		t.Error(err)
	}
}

// stoppedListening says why p still listens, or nil: its listener must
// be closed (Accept fails with net.ErrClosed at once). A dial to its port
// proves nothing either way: once the port is free, a server another test
// starts may take it at once (a false failure seen under load).
func stoppedListening(p *Proxy) error {
	if tl, ok := p.ln.(*net.TCPListener); ok {
		tl.SetDeadline(time.Now().Add(100 * time.Millisecond)) // an open listener times out rather than hangs
		defer tl.SetDeadline(time.Time{})
	}
	c, err := p.ln.Accept()
	if err == nil {
		c.Close()
		return fmt.Errorf("the proxy still accepts on %s", p.Addr())
	}
	if !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("the proxy's listener on %s is open: Accept said %v, want net.ErrClosed", p.Addr(), err)
	}
	return nil
}

func TestCloseAfterFailover(t *testing.T) {
	t.Parallel()
	top := start(t)
	ctx := context.Background()
	if err := top.CrashPrimary(ctx); err != nil {
		t.Fatal(err)
	}
	p, r := top.PIDs()
	if Alive(p) {
		t.Errorf("the primary (%d) survived CrashPrimary", p)
	}
	if err := top.Promote(ctx); err != nil {
		t.Fatal(err)
	}
	top.Close()
	checkGone(t, []int{p, r}, 0)
}

// TestChildrenDieWithTheTestBinary: the servers go when the process that
// started them does, however it ends (Pdeathsig), without Close. Only
// Linux has a parent-death signal.
func TestChildrenDieWithTheTestBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no parent-death signal here: the servers outlive a parent that does not stop them")
	}
	t.Parallel()
	redistest.NeedProgram(t, "redis-server")
	for _, mode := range []string{"exit", "panic", "sigkill"} {
		t.Run(mode, func(t *testing.T) {
			cmd, c := runHelper(t, mode)
			if mode == "sigkill" {
				for _, pid := range c.pids {
					if !Alive(pid) {
						t.Fatalf("child %d is not running while the helper is", pid)
					}
				}
				cmd.Process.Kill()
			}
			cmd.Wait()
			checkGone(t, c.pids, 5*time.Second)
		})
	}
}
