package probe_test

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// monitor watches what reaches a real redis-server (MONITOR) and returns
// a function that sends ECHO marker through l and returns the commands
// clients sent since the previous marker, one line each (a script's own
// calls left out).
func monitor(t *testing.T, addr string, l *lab) func(marker string) []string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.Write([]byte("MONITOR\r\n"))
	r := bufio.NewReader(conn)
	if line, err := r.ReadString('\n'); err != nil || line != "+OK\r\n" {
		t.Fatalf("MONITOR: %q, %v", line, err)
	}
	return func(marker string) []string {
		t.Helper()
		if _, err := l.Get("main").Do(t.Context(), []string{"ECHO", marker}); err != nil {
			t.Fatalf("ECHO %s: %v", marker, err)
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var cmds []string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading MONITOR: %v", err)
			}
			args := monitored(line)
			if strings.Join(args, " ") == "ECHO "+marker {
				return cmds
			}
			if args != nil {
				cmds = append(cmds, strings.Join(args, " "))
			}
		}
	}
}

// monitored is the arguments of a MONITOR line
// (+1714572000.123456 [0 127.0.0.1:5555] "SET" "k" "v"), nil for a
// script's own call ([0 lua]).
func monitored(line string) []string {
	_, rest, ok := strings.Cut(strings.TrimSpace(line), "] ")
	if !ok || strings.Contains(line, " lua] ") {
		return nil
	}
	var args []string
	for rest != "" {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return append(args, rest)
		}
		a, _ := strconv.Unquote(q)
		args = append(args, a)
		rest = strings.TrimPrefix(rest[len(q):], " ")
	}
	return args
}

// TestProbeOnTheWire: what a real Redis receives for each kind of command:
// MULTI, GET/PTTL of the lock keys before, the command, TIME, GET/PTTL
// after, EXEC, for commands on locks; the command alone for others, and inside
// MULTI or WATCH.
func TestProbeOnTheWire(t *testing.T) {
	addr := redistest.Real(t)
	l := newLab(t, addr)
	sent := monitor(t, addr, l)
	sent("start")
	const script = "return redis.call('get', KEYS[1])"
	for _, step := range []struct {
		line string
		wire []string
	}{
		{"SET lock:a tok NX PX 1000", []string{"MULTI", "GET lock:a", "PTTL lock:a", "SET lock:a tok NX PX 1000", "TIME", "GET lock:a", "PTTL lock:a", "EXEC"}},
		{"SET mine tok NX", []string{"MULTI", "GET mine", "PTTL mine", "SET mine tok NX", "TIME", "GET mine", "PTTL mine", "EXEC"}},
		{"DEL mine other", []string{"MULTI", "GET mine", "PTTL mine", "DEL mine other", "TIME", "GET mine", "PTTL mine", "EXEC"}},
		{"DEL other", []string{"DEL other"}},
		{"GET lock:a", []string{"MULTI", "GET lock:a", "PTTL lock:a", "GET lock:a", "TIME", "GET lock:a", "PTTL lock:a", "EXEC"}},
		{"GET other", []string{"GET other"}},
		{"RPUSH room:x:bookings b", []string{"MULTI", "LLEN room:x:bookings", "RPUSH room:x:bookings b", "TIME", "LLEN room:x:bookings", "EXEC"}},
		{"FLUSHDB", []string{"MULTI", "GET lock:a", "PTTL lock:a", "GET mine", "PTTL mine", "LLEN room:x:bookings", "FLUSHDB", "TIME", "GET lock:a", "PTTL lock:a", "GET mine", "PTTL mine", "LLEN room:x:bookings", "EXEC"}},
		{"EVAL " + script + " 2 lock:a other", []string{"MULTI", "GET lock:a", "PTTL lock:a", "EVAL " + script + " 2 lock:a other", "TIME", "GET lock:a", "PTTL lock:a", "EXEC"}},
		{"WATCH lock:a", []string{"WATCH lock:a"}},
		{"DEL lock:a", []string{"DEL lock:a"}}, // still WATCHing: not probed
	} {
		args := strings.Fields(step.line)
		if strings.HasPrefix(step.line, "EVAL") {
			args = []string{"EVAL", script, "2", "lock:a", "other"}
		}
		if _, err := l.Get("main").Do(t.Context(), args); err != nil {
			t.Fatalf("%s: %v", step.line, err)
		}
		if got := sent(step.line); strings.Join(got, "\n") != strings.Join(step.wire, "\n") {
			t.Errorf("%s reached the server as\n  %s\nwant\n  %s", step.line, strings.Join(got, "\n  "), strings.Join(step.wire, "\n  "))
		}
	}
}
