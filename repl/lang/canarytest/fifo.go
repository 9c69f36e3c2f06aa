//go:build linux

package canarytest

import (
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Watch starts watching the FIFOs outside the lab folder, which no one
// may open. Every half millisecond it looks: opening one for writing
// without blocking fails with ENXIO unless a reader has it open (or waits
// in its open: the probe then lets it go on, to an empty read), and a
// read without blocking says whether a writer has it open. stop ends the
// watch and says what was seen.
func (tr *Tree) Watch() (stop func() []string) {
	done := make(chan struct{})
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			for _, path := range tr.fifos {
				if what := probe(path); what != "" {
					mu.Lock()
					seen[filepath.Base(path)+": "+what] = true
					mu.Unlock()
				}
			}
			select {
			case <-done:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	})
	return func() []string {
		close(done)
		wg.Wait()
		var out []string
		for what := range seen {
			out = append(out, what)
		}
		slices.Sort(out)
		return out
	}
}

// probe says who has the FIFO at path open, or "". It uses the system
// calls themselves: an *os.File would wait in Go's poller instead of
// answering EAGAIN. It holds ForkLock while its descriptor is open: a
// child forked meanwhile (another test's locklab) would hold a copy until
// its exec, and the next probe would take that copy for a reader.
func probe(path string) string {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err == nil {
		syscall.Close(fd)
		return "opened for reading"
	} else if err != syscall.ENXIO {
		return "cannot be probed: " + err.Error()
	}
	if fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0); err != nil {
		return "cannot be probed: " + err.Error()
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, make([]byte, 64))
	switch {
	case n > 0:
		return "written to"
	case err == syscall.EAGAIN:
		return "opened for writing"
	}
	return ""
}
