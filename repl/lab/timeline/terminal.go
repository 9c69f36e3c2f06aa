package timeline

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// Style colours a rendering; the zero Style colours nothing.
type Style struct {
	Lane  func(lane, text string) string          // a lane's text
	Level func(l check.Level, text string) string // a note's
}

func (s Style) lane(lane, text string) string {
	if s.Lane == nil {
		return text
	}
	return s.Lane(lane, text)
}

func (s Style) level(l check.Level, text string) string {
	if s.Level == nil {
		return text
	}
	return s.Level(l, text)
}

const (
	timeWidth  = 8  // "+1.017s" and its separator
	lockWidth  = 13 // a lock's column: "✕ del by fast"
	minLane    = 14 // narrower lanes: the compact, one-line-per-item form
	maxLockCol = 2  // more locks than this: compact form
	sep        = " │ "
	noteLines  = 2 // a note is cut to this many rows in a lane; the verdict says it all
)

// Terminal draws t as swimlanes width columns wide: a time column (when
// each thing was done: a command's reply), one column per session, one per
// lock key. When the lanes would be too
// narrow (many sessions), it falls back to Compact.
func Terminal(t Timeline, width int, st Style) string {
	width = max(width, 40)
	n := len(t.Lanes)
	if n == 0 {
		return "timeline: nothing ran\n"
	}
	locks := len(t.Locks)
	sepW := utf8.RuneCountInString(sep)
	laneW := (width - timeWidth - locks*(lockWidth+sepW) - len(t.Nodes)*(nodeWidth+sepW) - n*sepW) / n
	if laneW < minLane || locks > maxLockCol {
		return Compact(t, width, st)
	}
	var b strings.Builder
	g := grid{t: t, laneW: laneW, st: st}
	g.header(&b)
	var prev time.Duration = -1
	for _, it := range t.Items {
		g.item(&b, it, prev)
		prev = it.End
	}
	verdict(&b, t, width, st)
	return b.String()
}

// grid is the swimlane layout of one rendering.
type grid struct {
	t     Timeline
	laneW int
	st    Style
}

func (g grid) header(b *strings.Builder) {
	cells := []string{pad("time", timeWidth-1)}
	for _, l := range g.t.Lanes {
		cells = append(cells, g.st.lane(l, pad(l, g.laneW)))
	}
	for _, k := range g.t.Locks {
		cells = append(cells, pad(k, lockWidth))
	}
	for _, n := range g.t.Nodes {
		cells = append(cells, pad(n, nodeWidth))
	}
	b.WriteString(strings.TrimRight(strings.Join(cells, sep), " ") + "\n")
	rule := []string{strings.Repeat("─", timeWidth-1)}
	for range g.t.Lanes {
		rule = append(rule, strings.Repeat("─", g.laneW))
	}
	for range g.t.Locks {
		rule = append(rule, strings.Repeat("─", lockWidth))
	}
	for range g.t.Nodes {
		rule = append(rule, strings.Repeat("─", nodeWidth))
	}
	b.WriteString(strings.Join(rule, "─┼─") + "\n")
}

// item writes one item's rows: its text wrapped in its lane, its time on
// the first row, and each lock's state as of the item.
func (g grid) item(b *strings.Builder, it Item, prev time.Duration) {
	lines := wrap(itemText(it), g.laneW)
	if it.Kind != Command && len(lines) > noteLines {
		lines = lines[:noteLines]
		lines[noteLines-1] = pad(lines[noteLines-1]+" …", g.laneW)
	}
	for i, line := range lines {
		cells := []string{pad("", timeWidth-1)}
		if i == 0 {
			cells[0] = pad(offset(it.End), timeWidth-1)
		}
		for _, l := range g.t.Lanes {
			text := ""
			if l == it.Lane {
				text = line
			}
			cells = append(cells, g.paint(it, pad(text, g.laneW)))
		}
		for _, k := range g.t.Locks {
			cells = append(cells, pad(g.lockCell(k, prev, it.End, i == 0), lockWidth))
		}
		for _, n := range g.t.Nodes {
			cells = append(cells, pad(g.nodeCell(n, it, prev, it.End, i == 0), nodeWidth))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, sep), " ") + "\n")
	}
}

func (g grid) paint(it Item, text string) string {
	if it.Kind == Command {
		return g.st.lane(it.Lane, text)
	}
	return g.st.level(it.Level, text)
}

// lockCell is a lock's state on a row: a holding that began since the
// previous row (┏ holder), one going on (┃ holder), or one that ended
// since (✕ how).
func (g grid) lockCell(key string, prev, now time.Duration, first bool) string {
	return barCell(g.t.Bars, key, prev, now, first)
}

// barCell is key's state on a row, from bars (a lock's, or a Redlock
// node's): ┏ holder, ┃ holder or ✕ how, as lockCell says.
func barCell(bars []Bar, key string, prev, now time.Duration, first bool) string {
	if b, ok := holderIn(bars, key, now); ok {
		if first && b.From > prev {
			return "┏ " + b.Lane
		}
		return "┃ " + b.Lane
	}
	if !first {
		return ""
	}
	for _, b := range bars {
		if b.Key == key && b.End != check.Held && b.Until > prev && b.Until <= now {
			return "✕ " + endText(b)
		}
	}
	return ""
}

func endText(b Bar) string {
	switch b.End {
	case check.Deleted:
		return "del by " + b.DeletedBy
	case check.Expired:
		return "expired"
	case quorum.Crashed:
		return "crashed"
	case quorum.Stopped:
		return "stopped"
	}
	return "released"
}

func itemText(it Item) string {
	switch it.Kind {
	case Command:
		return it.Text + " → " + it.Reply
	case Expiry:
		return "✕ " + it.Text
	}
	return "↳ " + it.Text
}

// Compact draws one line per item, for runs with many sessions or locks.
func Compact(t Timeline, width int, st Style) string {
	width = max(width, 40)
	var b strings.Builder
	nameW := 4
	for _, l := range t.Lanes {
		nameW = max(nameW, utf8.RuneCountInString(l))
	}
	for _, it := range t.Items {
		head := pad(offset(it.End), timeWidth-1) + " " + st.lane(it.Lane, pad(it.Lane, nameW)) + " │ "
		for i, line := range wrap(itemText(it)+answers(it), max(width-timeWidth-nameW-3, 20)) {
			if i > 0 {
				head = pad("", timeWidth+nameW) + " │ "
			}
			text := line
			if it.Kind != Command {
				text = st.level(it.Level, line)
			}
			b.WriteString(head + text + "\n")
		}
	}
	verdict(&b, t, width, st)
	return b.String()
}

func verdict(b *strings.Builder, t Timeline, width int, st Style) {
	for _, f := range t.Verdict {
		level := check.Good
		if f.Bad() {
			level = check.Bad
		}
		for _, line := range wrap("verdict: "+f.Text, width) {
			b.WriteString(st.level(level, line) + "\n")
		}
	}
}

// pad pads s with spaces to w runes, or cuts it to w with an ellipsis.
func pad(s string, w int) string {
	n := utf8.RuneCountInString(s)
	if n > w {
		r := []rune(s)
		return string(r[:w-1]) + "…"
	}
	return s + strings.Repeat(" ", w-n)
}

// wrap breaks s into lines of at most w runes, at spaces where it can.
func wrap(s string, w int) []string {
	w = max(w, 8)
	var lines []string
	for utf8.RuneCountInString(s) > w {
		r := []rune(s)
		cut := w
		for i := w; i > w/3; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		lines = append(lines, string(r[:cut]))
		s = strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(lines, s)
}
