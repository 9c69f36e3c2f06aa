//go:build unix && !linux

package server

import "syscall"

// childAttr is how a redis-server child starts: in its own process
// group, so a Ctrl-C aimed at us does not reach it before we stop it
// ourselves. There is no parent-death signal here (Pdeathsig is
// Linux's): the servers are stopped by locklab's own cleanup, on Close,
// on Ctrl-C and on the end signals; a locklab killed by SIGKILL leaves
// them running.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
