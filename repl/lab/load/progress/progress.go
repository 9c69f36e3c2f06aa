// Package progress draws a load run's progress bar on a terminal: cycles
// done out of all, with a label the run gives. One goroutine owns the bar
// (the workers only bump atomic counters), so a thousand workers do not
// queue on its lock.
package progress

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Status is what the bar shows now: cycles done, and the label.
type Status func() (done int64, label string)

// Bar is a progress bar redrawn every tenth of a second.
type Bar struct {
	bar    *progressbar.ProgressBar
	status Status
	stop   chan struct{}
	done   chan struct{}
}

const every = 100 * time.Millisecond

// New draws a bar for total cycles on w.
func New(w io.Writer, total int64, status Status) *Bar {
	b := &Bar{status: status, stop: make(chan struct{}), done: make(chan struct{})}
	_, label := status()
	b.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSetWidth(20),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(true),
	)
	go b.loop()
	return b
}

func (b *Bar) loop() {
	defer close(b.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.update()
		}
	}
}

func (b *Bar) update() {
	done, label := b.status()
	b.bar.Describe(label)
	b.bar.Set64(done)
}

// Finish draws the last state and erases the bar: the summary follows.
func (b *Bar) Finish() {
	close(b.stop)
	<-b.done
	b.update()
	b.bar.Clear()
}
