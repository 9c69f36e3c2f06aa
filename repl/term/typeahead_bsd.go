//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package term

import (
	"os"

	"golang.org/x/sys/unix"
)

// keepTypeahead keeps what is typed while a command runs, as on Linux
// (see typeahead_linux.go): NOFLSH set between two prompts, so that a
// Ctrl-C does not throw away the lines typed meanwhile. The BSDs' and
// macOS's requests are TIOCGETA and TIOCSETA.
func keepTypeahead(f *os.File) (restore func()) {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	if err != nil || t.Lflag&unix.NOFLSH != 0 {
		return func() {}
	}
	t.Lflag |= unix.NOFLSH
	if unix.IoctlSetTermios(fd, unix.TIOCSETA, t) != nil {
		return func() {}
	}
	return func() {
		if t, err := unix.IoctlGetTermios(fd, unix.TIOCGETA); err == nil {
			t.Lflag &^= unix.NOFLSH
			unix.IoctlSetTermios(fd, unix.TIOCSETA, t)
		}
	}
}
