package server

import "syscall"

// childAttr is how a redis-server child starts: in its own process
// group, so a Ctrl-C (CTRL_C_EVENT) aimed at our console does not reach
// it before we stop it ourselves. There is no parent-death signal on
// Windows: the servers are stopped by locklab's own cleanup, and a
// locklab that is killed leaves them running.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
