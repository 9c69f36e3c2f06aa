//go:build !linux

package main

import (
	"errors"
	"os"
	"syscall"
)

// openPTY: the tty command opens its pseudo-terminal as Linux does
// (/dev/ptmx, TIOCGPTN): the scripts that use it skip elsewhere.
func openPTY(rows, cols uint16) (ctrl, tty *os.File, err error) {
	return nil, nil, errors.New("the tty command needs Linux's pseudo-terminals")
}

func ttyAttr() *syscall.SysProcAttr { return nil }
