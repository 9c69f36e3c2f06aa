package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
)

// confirmCommands run, in order, through both the real redis-cli and
// locklab against one real redis-server. Every reply type and the
// formatting corners are here: statuses, bulk strings with escapes,
// nested arrays with two-digit indexes, errors, nil, empty arrays.
var confirmCommands = [][]string{
	{"FLUSHALL"},
	{"SET", "k", "v"},
	{"GET", "k"},
	{"GET", "missing"},
	{"SET", "lock:demo", "my-token", "PX", "5000", "NX"},
	{"SET", "lock:demo", "other", "PX", "5000", "NX"},
	{"SET", "esc", "tab\there \"quoted\" back\\slash new\nline \x01 caf\xc3\xa9"},
	{"GET", "esc"},
	{"RPUSH", "room:2pm:bookings", "bob", "alice"},
	{"LRANGE", "room:2pm:bookings", "0", "-1"},
	{"LRANGE", "nothing", "0", "-1"},
	{"LLEN", "room:2pm:bookings"},
	{"INCR", "k"},
	{"HSET", "h", "f1", "v1", "f2", "v2"},
	{"HGETALL", "h"},
	{"ZADD", "z", "1", "a", "2.5", "b"},
	{"ZRANGE", "z", "0", "-1", "WITHSCORES"},
	{"EVAL", "return {1,'a',{2,'b',{}},redis.error_reply('nope'),false}", "0"},
	{"EVAL", "local t = {} for i = 1, 12 do t[i] = i end return t", "0"},
	{"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end", "1", "lock:demo", "wrong-token"},
	{"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end", "1", "lock:demo", "my-token"},
	{"FOO", "bar"},
	{"GET"},
	{"EXEC"},
	{"XADD", "s", "1-1", "f", "v"},
	{"XRANGE", "s", "-", "+"},
	{"PING"},
	{"ECHO", "hi"},
	{"TYPE", "h"},
	{"DEL", "k", "h", "z"},
}

// TestConfirmAgainstRedisCLI runs each command as `redis-cli -p PORT CMD`
// and as `locklab -p PORT CMD`, raw (stdout is not a terminal) and with
// --no-raw, and diffs the output byte for byte.
func TestConfirmAgainstRedisCLI(t *testing.T) {
	cli := redisCLI(t)
	port := redistest.Real(t)[len("127.0.0.1:"):]
	for _, mode := range [][]string{nil, {"--no-raw"}} {
		// The whole list through redis-cli, then through locklab: each
		// starts with FLUSHALL, so both see the same states.
		var want, got []string
		for _, cmd := range confirmCommands {
			out, err := exec.Command(cli, append(append([]string{"-p", port}, mode...), cmd...)...).Output()
			if err != nil {
				t.Fatalf("redis-cli %q: %v", cmd, err)
			}
			want = append(want, string(out))
		}
		for _, cmd := range confirmCommands {
			var out, errOut bytes.Buffer
			run(append(append([]string{"-p", port}, mode...), cmd...), strings.NewReader(""), &out, &errOut)
			got = append(got, out.String())
		}
		for i, cmd := range confirmCommands {
			if got[i] != want[i] {
				t.Errorf("%q %q:\nredis-cli: %q\nlocklab:   %q", mode, cmd, want[i], got[i])
			}
		}
	}
}

// TestConfirmPiped feeds the same lines on stdin to both programs.
func TestConfirmPiped(t *testing.T) {
	cli := redisCLI(t)
	port := redistest.Real(t)[len("127.0.0.1:"):]
	lines := "FLUSHALL\nSET k v\nGET k\nRPUSH l a b c\nLRANGE l 0 -1\nGET nope\nFOO\nINCR k\n" +
		"HSET h f v\nHGETALL h\nSET q \"two words\"\nGET q\nLRANGE empty 0 -1\nKEYS *\n"
	for _, mode := range [][]string{nil, {"--no-raw"}} {
		args := append([]string{"-p", port}, mode...)
		c := exec.Command(cli, args...)
		c.Stdin = strings.NewReader(lines)
		want, err := c.Output()
		if err != nil {
			t.Fatalf("redis-cli %q: %v", args, err)
		}
		var got, errOut bytes.Buffer
		run(args, strings.NewReader(lines), &got, &errOut)
		if got.String() != string(want) {
			t.Errorf("%q:\nredis-cli:\n%s\nlocklab:\n%s\nstderr: %s", args, want, got.String(), errOut.String())
		}
	}
}

func redisCLI(t *testing.T) string {
	t.Helper()
	return redistest.NeedProgram(t, "redis-cli")
}

// TestConfirmUnknownWords: where locklab stands in for redis-cli, a word
// neither knows goes to the server as redis-cli sends it, so the user sees
// the server's own error (or a module's reply) and the same exit status.
// A bug refusing the word in these modes prints `not a lab command` and
// exits 127 where redis-cli printed ERR and exited 0.
func TestConfirmUnknownWords(t *testing.T) {
	cli := redisCLI(t)
	port := redistest.Real(t)[len("127.0.0.1:"):]
	for _, c := range []struct {
		what  string
		args  []string
		stdin string
	}{
		{"unknowncmd a b as arguments prints the server's unknown-command error", []string{"unknowncmd", "a", "b"}, ""},
		{"unknowncmd piped prints the server's unknown-command error", nil, "unknowncmd\n"},
		{"json.set as arguments goes to the server (a module command, unknown here)", []string{"json.set", "k", "$", "{}"}, ""},
	} {
		t.Run(c.what, func(t *testing.T) {
			args := append([]string{"-p", port}, c.args...)
			cmd := exec.Command(cli, args...)
			cmd.Stdin = strings.NewReader(c.stdin)
			var want, wantErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &want, &wantErr
			wantCode := 0
			if err := cmd.Run(); err != nil {
				exitErr, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("redis-cli %q: %v", args, err)
				}
				wantCode = exitErr.ExitCode()
			}
			if !strings.Contains(want.String(), "unknown command") {
				t.Fatalf("redis-cli %q printed %q: the server knows the word, so this compares nothing", args, want.String())
			}
			var got, gotErr bytes.Buffer
			gotCode := run(args, strings.NewReader(c.stdin), &got, &gotErr)
			if got.String() != want.String() {
				t.Errorf("stdout of %q:\nredis-cli: %q\nlocklab:   %q\nlocklab's stderr: %q", args, want.String(), got.String(), gotErr.String())
			}
			if gotCode != wantCode {
				t.Errorf("exit status of %q: redis-cli %d, locklab %d (stderr %q)", args, wantCode, gotCode, gotErr.String())
			}
		})
	}
}

// TestConfirmUnknownWordsRefused: in the lab language the same word is
// refused, with the statuses a shell gives: 127 for -c (command not found),
// 2 for a script file, whose precheck finds it before anything runs. A
// bug sending it to the server exits 0; one finding it in the file only
// as it runs exits 127.
func TestConfirmUnknownWordsRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "u.lab")
	if err := os.WriteFile(file, []byte("unknowncmd\necho after\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		args []string
		want int
	}{
		{"-c 'unknowncmd a' is refused with status 127", []string{"-c", "unknowncmd a"}, 127},
		{"a .lab file with unknowncmd is refused with status 2", []string{file}, 2},
	} {
		t.Run(c.what, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(c.args, strings.NewReader(""), &out, &errOut); code != c.want {
				t.Errorf("locklab %q exited %d, want %d\nstdout: %q\nstderr: %q", c.args, code, c.want, out.String(), errOut.String())
			}
			if !strings.Contains(errOut.String(), "unknowncmd: not a lab command") {
				t.Errorf("locklab %q: stderr %q does not say unknowncmd is not a lab command", c.args, errOut.String())
			}
			if out.Len() != 0 {
				t.Errorf("locklab %q printed %q: the refused line must not run, nor (in the file) what follows it", c.args, out.String())
			}
		})
	}
}

// confirmStreams are the commands after which the server keeps sending,
// each with what is sent once redis-cli and locklab both stream: the
// last of it is seen by both (the sign that each has printed all).
var confirmStreams = []struct {
	args     []string
	embedded bool // the embedded Redis has the command (else both print its error and end)
	traffic  [][]string
}{
	{[]string{"SUBSCRIBE", "news", "sport"}, true, [][]string{
		{"PUBLISH", "news", "hi there"}, {"PUBLISH", "nobody", "lost"}, {"PUBLISH", "sport", "tab\there \"quoted\" caf\xc3\xa9 \x01"},
		{"PUBLISH", "news", ""}, {"PUBLISH", "sport", "the end"}}},
	{[]string{"PSUBSCRIBE", "n*", "s?ort"}, true, [][]string{
		{"PUBLISH", "news", "hi"}, {"PUBLISH", "sport", "goal"}, {"PUBLISH", "nothing", "the end"}}},
	{[]string{"SSUBSCRIBE", "news"}, false, [][]string{{"SPUBLISH", "news", "hi"}, {"SPUBLISH", "news", "the end"}}},
	{[]string{"MONITOR"}, false, [][]string{
		{"SET", "k", "v \"quoted\"\n"}, {"GET", "k"}, {"EVAL", "return redis.call('GET', KEYS[1])", "1", "k"}, {"ECHO", "the end"}}},
}

// TestConfirmStreams runs each of confirmStreams as `redis-cli -p PORT
// CMD` and as `locklab -p PORT CMD` (one command as arguments), both at
// once, raw, with --no-raw and with -3, on the embedded Redis and on
// redis-server; sends the traffic, waits until both have printed its
// last message, stops both with Ctrl-C (SIGINT), and compares what they
// printed, byte for byte. Where the embedded Redis lacks the command,
// both print its error and end. (MONITOR with -3 is left out: the HELLO 3
// redis-cli sends shows on the monitor started before it.)
func TestConfirmStreams(t *testing.T) {
	cli := redisCLI(t)
	locklab := redistest.NeedProgram(t, "locklab") // this test binary, as testscript put it on PATH
	for kind, addr := range redistest.Servers(t) {
		port := addr[strings.LastIndex(addr, ":")+1:]
		for _, c := range confirmStreams {
			if kind == "embedded" && !c.embedded {
				t.Run(kind+"/"+c.args[0], func(t *testing.T) { confirmRefused(t, cli, locklab, port, c.args) })
				continue
			}
			for _, mode := range [][]string{nil, {"--no-raw"}, {"-3", "--no-raw"}} {
				if len(mode) == 2 && c.args[0] == "MONITOR" {
					continue
				}
				t.Run(kind+"/"+strings.Join(append(mode, c.args...), " "), func(t *testing.T) {
					confirmStream(t, []string{locklab, cli}, append(append([]string{"-p", port}, mode...), c.args...), addr, c.traffic)
				})
			}
		}
	}
}

// confirmStream starts each program with args, one after the other, each
// once it has printed its subscriptions (so that MONITOR shows the same
// commands to both); then sends traffic and compares.
func confirmStream(t *testing.T, programs, args []string, addr string, traffic [][]string) {
	conn := redistest.Dial(t, addr) // before the first MONITOR: it sends nothing on its own
	ready := 1                      // MONITOR's OK
	if i := slices.IndexFunc(args, isStreamCommand); args[i] != "MONITOR" {
		ready = 3*(len(args)-i-1) + strings.Count(strings.Join(args, " "), "--no-raw") // each subscription's 3 lines, and the banner
	}
	var runs []*streamRun
	for _, p := range programs {
		r := startStream(t, p, args)
		r.waitFor(t, func(out string) bool { return strings.Count(out, "\n") >= ready })
		runs = append(runs, r)
	}
	for _, cmd := range traffic {
		conn.Do(cmd...)
	}
	last := traffic[len(traffic)-1]
	for _, r := range runs {
		r.waitFor(t, func(out string) bool { return strings.Contains(out, last[len(last)-1]) })
		r.cmd.Process.Signal(os.Interrupt)
	}
	locklab, cli := runs[0].wait(), runs[1].wait()
	if locklab != cli {
		t.Errorf("%q:\nredis-cli: %q\nlocklab:   %q\nlocklab's stderr: %q", args, cli, locklab, runs[0].stderr.String())
	}
}

func isStreamCommand(arg string) bool {
	return slices.Contains([]string{"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "MONITOR"}, arg)
}

// confirmRefused: a stream the server refuses ends both programs, with
// the same output. (Reached with -p, the embedded Redis is a server like
// any to locklab: its hint on what the embedded Redis lacks is for its
// own, tested in testdata/script/pubsub.txtar.)
func confirmRefused(t *testing.T, cli, locklab, port string, args []string) {
	args = append([]string{"-p", port}, args...)
	want, _ := exec.Command(cli, args...).Output()
	var got, errOut bytes.Buffer
	cmd := exec.Command(locklab, args...)
	cmd.Stdout, cmd.Stderr = &got, &errOut
	cmd.Run()
	if got.String() != string(want) || !strings.Contains(string(want), "unknown command") {
		t.Errorf("%q:\nredis-cli: %q\nlocklab:   %q\nlocklab's stderr: %q", args, want, got.String(), errOut.String())
	}
}

// streamRun is a program streaming in the background, its output read as
// it comes.
type streamRun struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    bytes.Buffer
	stderr bytes.Buffer
	grew   chan struct{} // a value after each read, and closed at the end
}

func startStream(t *testing.T, program string, args []string) *streamRun {
	r := &streamRun{cmd: exec.Command(program, args...), grew: make(chan struct{}, 1)}
	r.cmd.Stderr = &r.stderr
	pipe, err := r.cmd.StdoutPipe()
	if err == nil {
		err = r.cmd.Start()
	}
	if err != nil {
		t.Fatalf("%s %q: %v", program, args, err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	go r.read(pipe)
	return r
}

func (r *streamRun) read(pipe io.Reader) {
	defer close(r.grew)
	buf := make([]byte, 4096)
	for {
		n, err := pipe.Read(buf)
		r.mu.Lock()
		r.out.Write(buf[:n])
		r.mu.Unlock()
		select {
		case r.grew <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// waitFor waits until what the program printed satisfies done.
func (r *streamRun) waitFor(t *testing.T, done func(string) bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		out := r.out.String()
		r.mu.Unlock()
		if done(out) {
			return
		}
		select {
		case _, open := <-r.grew:
			if !open && !done(r.output()) {
				t.Fatalf("%s ended having printed %q; stderr %q", r.cmd.Path, r.output(), r.stderr.String())
			}
		case <-timeout:
			t.Fatalf("%s printed %q and no more in 10 s; stderr %q", r.cmd.Path, out, r.stderr.String())
		}
	}
}

// wait waits for the program's end and returns all it printed.
func (r *streamRun) wait() string {
	for range r.grew {
	}
	r.cmd.Wait()
	return r.output()
}

func (r *streamRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}
