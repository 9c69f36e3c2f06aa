package server

import "syscall"

// childAttr is how a redis-server child starts: in its own process
// group, so a Ctrl-C aimed at us does not reach it before we stop it
// ourselves; Pdeathsig stops it if we die first.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
