package server

import (
	"testing"
	"time"
)

// SetBusyAfter makes the servers the test starts answer BUSY once a
// script has run d, instead of 5 s.
func SetBusyAfter(t *testing.T, d time.Duration) {
	old := busyAfter
	busyAfter = d
	t.Cleanup(func() { busyAfter = old })
}
