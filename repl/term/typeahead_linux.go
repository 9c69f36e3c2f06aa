package term

import (
	"os"
	"syscall"
	"unsafe"
)

// keepTypeahead keeps what is typed while a command runs: between two
// prompts the terminal is in its normal (cooked) mode, where the kernel
// holds the lines typed until the next prompt reads them, but where a
// Ctrl-C, besides its SIGINT, throws them away. With NOFLSH set it does
// not, so that a line typed during a `wait` runs after it even when
// Ctrl-C stopped the wait. readline saves and restores the cooked mode
// around each prompt, flag included. The func returned clears the flag
// again, when locklab set it.
func keepTypeahead(f *os.File) (restore func()) {
	var t syscall.Termios
	if termios(f, syscall.TCGETS, &t) != nil || t.Lflag&syscall.NOFLSH != 0 {
		return func() {}
	}
	t.Lflag |= syscall.NOFLSH
	if termios(f, syscall.TCSETS, &t) != nil {
		return func() {}
	}
	return func() {
		if termios(f, syscall.TCGETS, &t) == nil {
			t.Lflag &^= syscall.NOFLSH
			termios(f, syscall.TCSETS, &t)
		}
	}
}

// termios gets (TCGETS) or sets (TCSETS, at once) f's terminal settings.
func termios(f *os.File, req uintptr, t *syscall.Termios) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(unsafe.Pointer(t))); errno != 0 {
		return errno
	}
	return nil
}
