package output

import (
	"bytes"
	"sync"
)

// Buffer is a transcript that a run's goroutines (its sessions, its jobs)
// write to at once: explore's schedules and `locklab test`'s labs keep
// what each run printed in one.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
