//go:build linux

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lang/canarytest"
)

// access is one file system call from strace's log: the call, the path
// it named (the tree's root written {TREE}, process ids as PID), whether
// the path was relative to a folder's descriptor (the lab's os.Root)
// rather than to the working folder, and whether it could write.
type access struct {
	call, path string
	atFD       bool
	write      bool
}

// key is how accesses compare between runs.
func (a access) key() string {
	k := a.call + " " + a.path
	if a.atFD {
		k += " (at a folder's descriptor)"
	}
	if a.write {
		k += " (writing)"
	}
	return k
}

// inLab reports whether a is a read inside the lab folder: by a
// folder's descriptor with no way up, or by path to the folder itself,
// to a regular file in it, or to a name it lacks. A symlink or a FIFO
// reached by path is not: the kernel follows what the view never does.
func (a access) inLab(tr *canarytest.Tree) bool {
	if a.write {
		return false
	}
	if a.atFD {
		return !slices.Contains(strings.Split(a.path, "/"), "..")
	}
	rel, ok := strings.CutPrefix(a.path, "{TREE}/lab")
	if !ok || rel != "" && rel[0] != '/' || strings.Contains(rel, "/..") {
		return false
	}
	info, err := os.Lstat(tr.Lab + rel)
	return err != nil || info.Mode().IsRegular() || info.IsDir()
}

var (
	straceCall = regexp.MustCompile(`^\d+\s+([a-z0-9_]+)\((.*)$`)
	quoted     = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	sunPath    = regexp.MustCompile(`sun_path=@?"((?:[^"\\]|\\.)*)"`)
	writeFlag  = regexp.MustCompile(`\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b`)
	procID     = regexp.MustCompile(`/(proc|task)/\d+`)
)

// writeCalls are the calls that change the file system by their path.
var writeCalls = map[string]bool{"mkdir": true, "mkdirat": true, "unlink": true, "unlinkat": true, "rmdir": true,
	"rename": true, "renameat": true, "renameat2": true, "link": true, "linkat": true, "symlink": true, "symlinkat": true,
	"mknod": true, "mknodat": true, "chmod": true, "fchmodat": true, "fchmodat2": true, "chown": true, "lchown": true,
	"fchownat": true, "utimensat": true, "utimes": true, "utime": true, "futimesat": true, "truncate": true, "creat": true,
	"setxattr": true, "lsetxattr": true, "removexattr": true, "lremovexattr": true, "bind": true}

// readAccesses reads strace's log of one run. A log that cannot be read
// fails the test: the observer saw nothing.
func readAccesses(t *testing.T, logFile string, tr *canarytest.Tree, bin string, runErr error) []access {
	f, err := os.Open(logFile)
	if err != nil {
		t.Fatalf("strace's log: %v (the run: %v)", err, runErr)
	}
	defer f.Close()
	var out []access
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		if a, ok := parseAccess(sc.Text(), tr); ok {
			out = append(out, a)
		}
	}
	return out
}

// parseAccess reads one line of strace's log: a call that names a path
// (connect and bind: a Unix socket's). Lines of other kinds, the end of
// a call strace showed in two parts, and empty paths (fstat) are not.
func parseAccess(line string, tr *canarytest.Tree) (access, bool) {
	m := straceCall.FindStringSubmatch(line)
	if m == nil {
		return access{}, false
	}
	call, args := m[1], strings.TrimSuffix(m[2], " <unfinished ...>")
	re := quoted
	if call == "connect" || call == "bind" {
		re = sunPath
	}
	q := re.FindStringSubmatch(args)
	if q == nil || q[1] == "" {
		return access{}, false
	}
	path := unquoteStrace(q[1])
	a := access{call: call, write: writeCalls[call] || call != "execve" && writeFlag.MatchString(args)}
	a.atFD = call != "connect" && call != "bind" && args[0] >= '0' && args[0] <= '9' && !filepath.IsAbs(path)
	if !a.atFD && !filepath.IsAbs(path) {
		path = filepath.Join(tr.Lab, path) // locklab's working folder
	}
	a.path = procID.ReplaceAllString(strings.ReplaceAll(path, tr.Root, "{TREE}"), "/$1/PID")
	return a, true
}

// unquoteStrace reads a string as strace writes it (C escapes).
func unquoteStrace(s string) string {
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}
