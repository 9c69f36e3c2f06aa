package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initLine is a line of GODEBUG=inittrace=1: a package's init, and what
// it allocated.
var initLine = regexp.MustCompile(`^init (\S+) @.* ([0-9]+) bytes, ([0-9]+) allocs$`)

// maxOwnInitBytes bounds what locklab's own packages allocate, all
// together, as the program starts: 17 KB now (the words' maps, the
// scripts' table), 104 KB when the regexps, the scripts' SHA1s and the
// jobs' secret were made there (issue 25).
const maxOwnInitBytes = 32 << 10

// TestStartupIsLight: locklab's own packages make next to nothing as the
// program starts, whatever it is asked to do: regexps, Lua scripts'
// SHA1s, secrets and usage lines wait for the run that needs them, so
// one command (locklab SET k v) pays for none. The runtime's own report
// (GODEBUG=inittrace=1) is read: bytes allocated, which it counts
// exactly, not time.
func TestStartupIsLight(t *testing.T) {
	cmd := exec.Command(locklabBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("locklab --version: %v\n%s", err, out)
	}
	total, heaviest, heaviestBytes, seen := 0, "", 0, 0
	for _, line := range strings.Split(string(out), "\n") {
		m := initLine.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(m[1], module+"repl/") {
			continue
		}
		bytes, _ := strconv.Atoi(m[2])
		total, seen = total+bytes, seen+1
		if bytes > heaviestBytes {
			heaviest, heaviestBytes = m[1], bytes
		}
	}
	if seen == 0 {
		t.Fatalf("no init line of locklab's packages in:\n%s", out)
	}
	if total > maxOwnInitBytes {
		t.Errorf("locklab's packages allocate %d bytes as it starts (at most %d): the most, %s, %d bytes; make what they build at init lazy (sync.OnceValue)",
			total, maxOwnInitBytes, heaviest, heaviestBytes)
	}
}
