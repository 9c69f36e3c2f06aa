package server

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ownerFile, in a directory OwnedDir made, holds the PID of the process
// that made it: once that process is gone, the directory is stale.
const ownerFile = "owner"

// OwnedDir makes a temporary directory named prefix plus a random suffix,
// owned by this process (its PID in the owner file), for servers it
// starts: RemoveStale removes it once the process is gone.
func OwnedDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	pid := strconv.Itoa(os.Getpid()) + "\n"
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(pid), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// RemoveStale removes the directories OwnedDir made with prefix whose
// owner is gone (killed with SIGKILL, or the machine lost its power):
// on Linux their servers died with it (see childAttr). A directory that
// names no owner may be one being made: it stays.
func RemoveStale(prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err == nil && pid > 0 && !Alive(pid) {
			os.RemoveAll(dir)
		}
	}
}
