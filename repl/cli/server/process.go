package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// ErrNoRedisServer says that the redis-server program is not installed.
var ErrNoRedisServer = errors.New("redis-server is not on PATH: install it (Debian/Ubuntu: apt-get install redis-server redis-tools; macOS: brew install redis)")

// Process is a real redis-server child process on a loopback port, keeping
// nothing on disk outside its own temporary directory.
type Process struct {
	Port int
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
}

// StartProcess starts redis-server on 127.0.0.1 and a free port, in dir
// (an empty temporary directory the caller owns), and waits until it
// accepts connections. Extra arguments are passed on as server options,
// e.g. "--requirepass", "secret".
//
// The port is free when chosen but released before redis-server binds it,
// so a server started in parallel may take it first: then a new port is
// tried (up to 5 times).
func StartProcess(ctx context.Context, dir string, extra ...string) (*Process, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoRedisServer
	}
	for attempt := 1; ; attempt++ {
		p, err := startOnce(ctx, bin, dir, extra)
		if !errors.Is(err, errPortTaken) || attempt == 5 {
			return p, err
		}
	}
}

// errPortTaken says another process bound the chosen port first.
var errPortTaken = errors.New("the port was taken before redis-server could bind it")

func startOnce(ctx context.Context, bin, dir string, extra []string) (*Process, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no",
		"--logfile", dir + "/redis.log"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting redis-server: %w", err)
	}
	p := &Process{Port: port, cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	if err := p.waitReady(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Addr is the host:port of the server.
func (p *Process) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.Port)) }

// Close stops the server (SIGKILL: it keeps nothing worth saving) and waits
// for it to exit.
func (p *Process) Close() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	<-p.done
}

// waitReady waits for our server's own log to say it accepts connections
// (dialing the port could reach another process that took it first).
func (p *Process) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		log, _ := os.ReadFile(p.dir + "/redis.log")
		select {
		case <-p.done:
			if bytes.Contains(log, []byte("Address already in use")) {
				return errPortTaken
			}
			return fmt.Errorf("redis-server exited at start-up: %s", log)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if bytes.Contains(log, []byte("Ready to accept connections")) {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("redis-server on %s did not accept connections within 10s", p.Addr())
}

// freePort asks the OS for a free loopback port. Another process could take
// it before redis-server binds it; on loopback in a test run that is rare.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// PID is the server's process ID.
func (p *Process) PID() int { return p.cmd.Process.Pid }
