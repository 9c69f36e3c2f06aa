package redistest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ChildServers are the PIDs of the redis-server processes whose parent
// is this process (read from /proc; none where there is no /proc): what
// a test counts before and after the lab starts and stops its servers.
func ChildServers() []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := strconv.Itoa(os.Getpid())
	var pids []int
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // gone meanwhile
		}
		if pid, ok := childServer(string(data), parent); ok {
			pids = append(pids, pid)
		}
	}
	return pids
}

// childServer reads a /proc/PID/stat line, "PID (COMM) STATE PPID ...",
// and reports the PID when COMM is redis-server, PPID is parent and the
// process is not a zombie (exited, not yet reaped).
func childServer(stat, parent string) (int, bool) {
	open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return 0, false
	}
	rest := strings.Fields(stat[end+1:])
	if stat[open+1:end] != "redis-server" || len(rest) < 2 || rest[1] != parent || rest[0] == "Z" {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(stat[:open]))
	return pid, err == nil
}
