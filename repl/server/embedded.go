package server

import (
	"fmt"

	"github.com/alicebob/miniredis/v2"
)

// Embedded is an in-process Redis (miniredis) listening on a loopback port,
// with TTLs that run down in real time.
type Embedded struct {
	m *miniredis.Miniredis
}

// StartEmbedded starts an embedded Redis on 127.0.0.1 and an OS-chosen port.
//
// ClockTTL(true) is essential: without it miniredis never expires keys on
// its own and every lesson that waits for a lock to expire silently breaks.
func StartEmbedded() (*Embedded, error) {
	m := miniredis.NewMiniRedis()
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("starting the embedded Redis: %w", err)
	}
	m.ClockTTL(true)
	return &Embedded{m: m}, nil
}

// Addr is the host:port the embedded server listens on.
func (e *Embedded) Addr() string { return e.m.Addr() }

// Port is the port the embedded server listens on, as a string.
func (e *Embedded) Port() string { return e.m.Port() }

// Close stops the server and drops its data.
func (e *Embedded) Close() { e.m.Close() }
