package load

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressBar draws the run's progress: cycles done out of all, with the
// mode's telling counter. One goroutine owns the bar (the workers only
// bump atomic counters), so a thousand workers do not queue on its lock.
type progressBar struct {
	bar  *progressbar.ProgressBar
	c    *counters
	mode string
	stop chan struct{}
	done chan struct{}
}

const progressEvery = 100 * time.Millisecond

func newProgressBar(w io.Writer, cfg Config, c *counters) *progressBar {
	p := &progressBar{c: c, mode: cfg.Mode, stop: make(chan struct{}), done: make(chan struct{})}
	p.bar = progressbar.NewOptions64(int64(cfg.Workers)*int64(cfg.Iterations),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(p.describe()),
		progressbar.OptionSetWidth(20),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(true),
	)
	go p.loop()
	return p
}

func (p *progressBar) loop() {
	defer close(p.done)
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.update()
		}
	}
}

func (p *progressBar) update() {
	p.bar.Describe(p.describe())
	p.bar.Set64(p.c.done.Load())
}

// describe is the bar's label: the mode and what it is about, short
// enough for the whole line to fit in 80 columns.
func (p *progressBar) describe() string {
	switch p.mode {
	case ModeBreak:
		return fmt.Sprintf("break · wrong-owner DEL %d · lost %d", p.c.wrongOwner.Load(), p.c.lost.Load())
	case ModeExtend:
		return fmt.Sprintf("extend · overlaps %d · too late %d", p.c.overlaps.Load(), p.c.lostExtensions.Load())
	case ModeFenced:
		return fmt.Sprintf("fenced · refused %d · lost %d", p.c.fencedRejected.Load(), p.c.lost.Load())
	}
	return fmt.Sprintf("%s · overlaps %d · lost %d", p.mode, p.c.overlaps.Load(), p.c.lost.Load())
}

// finish draws the last state and erases the bar: the summary follows.
func (p *progressBar) finish() {
	close(p.stop)
	<-p.done
	p.update()
	p.bar.Clear()
}
