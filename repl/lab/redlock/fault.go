package redlock

import (
	"fmt"
	"slices"
	"time"

	"github.com/locklab/locklab/repl/clock"
)

// Crash stops node name at once: its data is gone, and it answers nothing
// until restarted.
func (l *Lab) Crash(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	nd, err := l.findLocked(name)
	if err != nil {
		return err
	}
	if nd.srv == nil {
		return fmt.Errorf("node %s is already down", name)
	}
	nd.srv.Close()
	nd.srv = nil
	nd.gen++
	nd.back = time.Time{}
	return nil
}

// Restart brings node name back, empty (no persistence), on its own clock:
// at once, or after delay on the lab's clock (the docs' "delayed
// restarts"); done, if not nil, is called then with the start's error.
// A gated lab's node (UpAt) comes back when the first command or look
// after the delay finds it due (backLocked), with no goroutine of the
// lab's own: explore's scheduler counts only the run's goroutines, and a
// restart at any later instant is the same for every command that
// comes after it; done is not called.
func (l *Lab) Restart(name string, delay time.Duration, base clock.Clock, done func(error)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	nd, err := l.findLocked(name)
	if err != nil {
		return err
	}
	if nd.srv != nil {
		return fmt.Errorf("node %s is up: crash it first", name)
	}
	nd.back = time.Time{}
	if delay <= 0 {
		return l.startLocked(nd)
	}
	if l.gate != nil {
		nd.back, nd.backOn = base.Now().Add(delay), base
		return nil
	}
	gen, life := nd.gen, l.life
	go func() {
		if base.Sleep(life, delay) != nil {
			return
		}
		if err := l.restartLater(nd, gen); done != nil {
			done(err)
		}
	}()
	return nil
}

// restartLater starts nd after its delay, unless it crashed again, was
// restarted by hand, or the lab went down meanwhile.
func (l *Lab) restartLater(nd *node, gen int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.nodes, nd) || nd.gen != gen || nd.srv != nil {
		return nil
	}
	return l.startLocked(nd)
}

// backLocked brings back the nodes whose delayed restart is due (a gated
// lab's: see Restart). One that fails to start stays down. l.mu is held.
func (l *Lab) backLocked() {
	for _, nd := range l.nodes {
		if nd.srv == nil && !nd.back.IsZero() && !nd.backOn.Now().Before(nd.back) {
			nd.back = time.Time{}
			_ = l.startLocked(nd)
		}
	}
}

// startLocked starts nd's server, empty. l.mu is held.
func (l *Lab) startLocked(nd *node) error {
	srv, err := startServer(l.life, l.kind, l.dir, nd, l.gate != nil)
	if err != nil {
		return fmt.Errorf("restart %s: %w", nd.name, err)
	}
	nd.srv = srv
	return nil
}
