package main

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// ttyAttr makes the child the leader of a new session, the
// pseudo-terminal (its stdin) its controlling terminal.
func ttyAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// openPTY opens a pseudo-terminal pair, rows by cols.
func openPTY(rows, cols uint16) (ctrl, tty *os.File, err error) {
	ctrl, err = os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	var n uint32
	var unlock int32
	if err = ioctl(ctrl, syscall.TIOCGPTN, unsafe.Pointer(&n)); err == nil {
		err = ioctl(ctrl, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	}
	if err == nil {
		tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		ctrl.Close()
		return nil, nil, err
	}
	size := [4]uint16{rows, cols, 0, 0}
	if err := ioctl(tty, syscall.TIOCSWINSZ, unsafe.Pointer(&size)); err != nil {
		ctrl.Close()
		tty.Close()
		return nil, nil, err
	}
	return ctrl, tty, nil
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}
