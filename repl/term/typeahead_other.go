//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package term

import "os"

// keepTypeahead does nothing here: the terminal's NOFLSH flag is set
// only where it is known how (Linux, macOS and the BSDs). A Ctrl-C
// while a command runs may then throw away the lines typed meanwhile.
func keepTypeahead(*os.File) (restore func()) { return func() {} }
