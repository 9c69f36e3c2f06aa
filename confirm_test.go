package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/redistest"
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
