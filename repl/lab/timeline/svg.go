package timeline

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// The SVG's geometry, in pixels. Text is 12px monospace: a character is
// about 0.6em wide in the usual monospace fonts (DejaVu Sans Mono, Liberation
// Mono: 7.2px); charW is a little more so that wrapped text stays inside
// its column whatever the font.
const (
	svgMargin   = 16.0
	svgFont     = 12.0
	svgCharW    = 7.4
	svgLineH    = 16.0 // one line of text
	svgRowGap   = 6.0  // at least this between two rows
	svgHeaderH  = 28.0
	svgTimeW    = 76.0 // the time axis: "+0.000s"
	svgTrackW   = 180.0
	svgMinLane  = 190.0
	svgMaxLane  = 320.0
	svgWidth    = 1120.0 // lanes and locks share about this much
	svgMaxLines = 6      // a note is cut to this many lines
	barChars    = 20     // a bar's labels: (svgTrackW - 30) / svgCharW
)

// laneColors are the lanes' colours, dark (text, header) and light
// (background, bars), in lane order, repeating. Red and green are kept
// for the notes.
var laneColors = [][2]string{
	{"#1f5fa8", "#e3edf8"}, // blue
	{"#b35900", "#fbeee0"}, // orange
	{"#6a1b9a", "#f3e5f5"}, // purple
	{"#00838f", "#e0f7fa"}, // cyan
	{"#5d4037", "#efebe9"}, // brown
	{"#ad1457", "#fce4ec"}, // pink
	{"#827717", "#f9fbe7"}, // olive
	{"#283593", "#e8eaf6"}, // indigo
}

var levelColors = map[check.Level]string{check.Info: "#616161", check.Good: "#2e7d32", check.Bad: "#c62828"}

// SVG draws t as a self-contained SVG swimlane: a header with a column
// per session and per lock key, time flowing down with a time axis, each
// command and its reply in its session's column and colour, notes in red
// (a bug showing), green (a fix that held) or grey, a bar per lock holding
// in the lock's column from acquisition to its end (✕ expired, ✕ deleted
// by another session, released, or still held), and the verdict below.
//
// Rows are placed at their real offsets (when the server answered), on a
// scale that fits the run in a page, but never closer than a line of text
// to the row before: a burst of commands pushes later rows down, and the
// time axis shows each row's offset. Bars use the same mapping, so a bar
// starts and ends on the rows that started and ended it.
//
// The SVG needs nothing else: no scripts, no stylesheets, no fonts but the
// reader's monospace.
func SVG(t Timeline) string {
	l := newLayout(t.nodesAsLocks())
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="monospace" font-size="%s">`+"\n",
		num(l.width), num(l.height), num(l.width), num(l.height), num(svgFont))
	fmt.Fprintf(&b, "<title>%s</title>\n", xmlText(l.title()))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	l.columns(&b)
	l.axis(&b)
	l.items(&b)
	l.bars(&b)
	l.verdict(&b)
	b.WriteString("</svg>\n")
	return b.String()
}

// svgLayout is where everything goes.
type svgLayout struct {
	t           Timeline
	laneW       float64
	laneChars   int
	laneX       map[string]float64
	laneColor   map[string][2]string
	lockX       map[string]float64
	tracks      map[string]int // lock key -> number of tracks (overlapping bars)
	barTrack    []int          // Bars[i]'s track in its lock's column
	top, bottom float64        // the rows' area
	rows        []svgRow
	endT        time.Duration // the last time drawn: the run's end or a held bar's
	verdicts    [][]string    // each finding's lines
	width       float64
	height      float64
}

// svgRow is one item, placed.
type svgRow struct {
	y     float64 // the top of its first line
	lines []string
}

func newLayout(t Timeline) *svgLayout {
	l := &svgLayout{t: t, laneX: map[string]float64{}, laneColor: map[string][2]string{}, lockX: map[string]float64{}, tracks: map[string]int{}}
	l.assignTracks()
	locksW := 0.0
	for _, k := range t.Locks {
		locksW += float64(l.tracks[k]) * svgTrackW
	}
	l.laneW = svgMaxLane
	if n := len(t.Lanes); n > 0 {
		l.laneW = min(max((svgWidth-locksW)/float64(n), svgMinLane), svgMaxLane)
	}
	l.laneChars = int((l.laneW - 12) / svgCharW)
	x := svgMargin + svgTimeW
	for i, lane := range t.Lanes {
		l.laneX[lane] = x
		l.laneColor[lane] = laneColors[i%len(laneColors)]
		x += l.laneW
	}
	for _, k := range t.Locks {
		l.lockX[k] = x
		x += float64(l.tracks[k]) * svgTrackW
	}
	l.width = math.Ceil(max(x+svgMargin, 480))

	l.top = svgMargin + svgHeaderH + svgLineH
	l.endT = t.Length
	for _, b := range t.Bars {
		l.endT = max(l.endT, b.Until)
	}
	// The scale: about a row's height per row on average, so that the
	// proportions show without the page growing with the run's length. A
	// lock still held at the end (its bar runs to "now", which in the REPL
	// may be minutes later) does not count.
	scale := 0.0
	if secs := t.Length.Seconds(); secs > 0 {
		scale = min(max(400, float64(len(t.Items))*2.5*svgLineH), 1600) / secs
	}
	next := l.top
	for _, it := range t.Items {
		lines := l.itemLines(it)
		y := max(next, l.top+scale*it.End.Seconds())
		l.rows = append(l.rows, svgRow{y: y, lines: lines})
		next = y + float64(len(lines))*svgLineH + svgRowGap
	}
	l.bottom = next + svgLineH
	for _, b := range t.Bars {
		if b.End == check.Held {
			// Room for its bar to run on past the last row.
			l.bottom = next + 2*svgLineH
		}
	}
	allChars := int((l.width - 2*svgMargin) / svgCharW)
	for _, f := range t.Verdict {
		mk := "✓ "
		if f.Bad() {
			mk = "⚠ "
		}
		l.verdicts = append(l.verdicts, wrap(oneLine(mk+"verdict: "+f.Text), allChars))
	}
	h := l.bottom + svgLineH
	for _, v := range l.verdicts {
		h += float64(len(v)) * svgLineH
	}
	l.height = math.Ceil(h + svgMargin)
	return l
}

// assignTracks puts each lock's bars in tracks, side by side when two
// holdings of the same key overlap (the model allows it; Redis does not).
func (l *svgLayout) assignTracks() {
	l.barTrack = make([]int, len(l.t.Bars))
	order := make([]int, len(l.t.Bars))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return l.t.Bars[order[i]].From < l.t.Bars[order[j]].From })
	ends := map[string][]time.Duration{} // lock key -> each track's last Until
	for _, i := range order {
		b := l.t.Bars[i]
		tr := 0
		for tr < len(ends[b.Key]) && ends[b.Key][tr] > b.From {
			tr++
		}
		if tr == len(ends[b.Key]) {
			ends[b.Key] = append(ends[b.Key], 0)
		}
		ends[b.Key][tr] = b.Until
		l.barTrack[i] = tr
	}
	for _, k := range l.t.Locks {
		l.tracks[k] = max(len(ends[k]), 1)
	}
}

func (l *svgLayout) itemLines(it Item) []string {
	text := itemText(it) + answers(it)
	if it.Kind == Note {
		text = "↳ " + mark(it.Level) + it.Text
	}
	lines := wrap(oneLine(text), l.laneChars)
	if it.Kind != Command && len(lines) > svgMaxLines {
		lines = lines[:svgMaxLines]
		lines[svgMaxLines-1] = cut(lines[svgMaxLines-1]+" …", l.laneChars)
	}
	return lines
}

func (l *svgLayout) title() string {
	return "locklab timeline: " + strings.Join(l.t.Lanes, ", ")
}

// columns draws the header and the columns' backgrounds.
func (l *svgLayout) columns(b *strings.Builder) {
	y := svgMargin
	h := l.bottom - y
	fmt.Fprintf(b, `<text x="%s" y="%s" fill="#616161">time</text>`+"\n", num(svgMargin), num(y+18))
	for _, lane := range l.t.Lanes {
		x, c := l.laneX[lane], l.laneColor[lane]
		fmt.Fprintf(b, `<g class="lane"><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, num(x+2), num(y), num(l.laneW-4), num(h), c[1])
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, num(x+2), num(y), num(l.laneW-4), num(svgHeaderH), c[0])
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="#ffffff" font-weight="bold">%s</text></g>`+"\n",
			num(x+8), num(y+18), xmlText(cut(oneLine(lane), l.laneChars)))
	}
	for _, k := range l.t.Locks {
		x, w := l.lockX[k], float64(l.tracks[k])*svgTrackW
		fmt.Fprintf(b, `<g class="lock"><rect x="%s" y="%s" width="%s" height="%s" fill="#f5f5f5"/>`, num(x+2), num(y), num(w-4), num(h))
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#424242"/>`, num(x+2), num(y), num(w-4), num(svgHeaderH))
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="#ffffff" font-weight="bold">%s</text></g>`+"\n",
			num(x+8), num(y+18), xmlText(cut(oneLine(k), int((w-12)/svgCharW))))
	}
}

// axis draws the time axis: a line down the left, and each row's offset
// (once per distinct offset) with a faint rule across the page.
func (l *svgLayout) axis(b *strings.Builder) {
	x := svgMargin + svgTimeW - 6
	fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#9e9e9e"/>`+"\n", num(x), num(l.top-4), num(x), num(l.bottom))
	last := ""
	for i, it := range l.t.Items {
		label := offset(it.End)
		if label == last {
			continue
		}
		last = label
		y := l.rows[i].y + svgLineH/2
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0" stroke-dasharray="2 3"/>`, num(x-3), num(y), num(l.width-svgMargin), num(y))
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="#616161">%s</text>`+"\n", num(svgMargin), num(y+4), label)
	}
}

// items draws each command, note and expiry in its lane.
func (l *svgLayout) items(b *strings.Builder) {
	if len(l.t.Items) == 0 {
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="#616161">nothing ran</text>`+"\n", num(svgMargin+svgTimeW+8), num(l.top+12))
	}
	for i, it := range l.t.Items {
		color := l.laneColor[it.Lane][0]
		if it.Kind != Command {
			color = levelColors[it.Level]
		}
		x := l.laneX[it.Lane] + 8
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s" xml:space="preserve">`, num(x), num(l.rows[i].y+12), color)
		for j, line := range l.rows[i].lines {
			dy := "0"
			if j > 0 {
				dy = num(svgLineH)
			}
			fmt.Fprintf(b, `<tspan x="%s" dy="%s">%s</tspan>`, num(x), dy, xmlText(line))
		}
		b.WriteString("</text>\n")
	}
}

// bars draws each lock holding as a bar in its lock's column, and how it
// ended.
func (l *svgLayout) bars(b *strings.Builder) {
	for i, bar := range l.t.Bars {
		x := l.lockX[bar.Key] + float64(l.barTrack[i])*svgTrackW + 10
		y1, y2 := l.barStart(bar), l.barEnd(bar)
		y2 = max(y2, y1+2)
		c := l.laneColor[bar.Lane]
		tip := fmt.Sprintf("%s held %s (%s) from %s to %s: %s", bar.Lane, bar.Key, bar.Token, offset(bar.From), offset(bar.Until), endText(bar))
		if bar.End == check.Held {
			tip = fmt.Sprintf("%s held %s (%s) from %s: still held when the run ended", bar.Lane, bar.Key, bar.Token, offset(bar.From))
		}
		fmt.Fprintf(b, `<g class="bar"><title>%s</title>`, xmlText(tip))
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="14" height="%s" fill="%s" stroke="%s"/>`, num(x), num(y1), num(y2-y1), c[1], c[0])
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s">%s</text>`, num(x+20), num(y1+12), c[0], xmlText(cut(oneLine(bar.Lane), barChars)))
		end, color := "", levelColors[check.Bad]
		switch bar.End {
		case check.Expired:
			end = "✕ expired"
		case check.Deleted:
			end = "✕ deleted by " + oneLine(bar.DeletedBy)
		case check.Released:
			end, color = "released", levelColors[check.Info]
		case check.Held:
			end, color = "↓ still held", levelColors[check.Info]
		case quorum.Crashed, quorum.Stopped:
			end = "✕ " + endText(bar)
		}
		switch bar.End {
		case check.Expired, check.Deleted:
			fmt.Fprintf(b, `<path d="M%s %sl10 10m0 -10l-10 10" stroke="%s" stroke-width="2.5"/>`, num(x+2), num(y2-5), color)
		default:
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`, num(x-3), num(y2), num(x+17), num(y2), c[0])
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s">%s</text></g>`+"\n", num(x+20), num(y2+4), color, xmlText(cut(end, barChars)))
	}
}

// barStart is where a holding starts: on its acquisition's row (the
// holder's command that answered at From) when there is one.
func (l *svgLayout) barStart(b Bar) float64 {
	return l.rowAt(b.From, func(it Item) bool { return it.Kind == Command && it.Lane == b.Lane && it.End == b.From })
}

// barEnd is where a holding ends: on the row of its expiry, or of the
// command that deleted or released it (which did so when it started).
func (l *svgLayout) barEnd(b Bar) float64 {
	switch b.End {
	case check.Expired:
		return l.rowAt(b.Until, func(it Item) bool { return it.Kind == Expiry && it.Lane == b.Lane && it.End == b.Until })
	case check.Deleted:
		return l.rowAt(b.Until, func(it Item) bool { return it.Kind == Command && it.Lane == b.DeletedBy && it.At == b.Until })
	case check.Released:
		return l.rowAt(b.Until, func(it Item) bool { return it.Kind == Command && it.Lane == b.Lane && it.At == b.Until })
	}
	return l.bottom - svgLineH/2
}

// rowAt is the middle of the first line of the first row that is, or
// else where time d is drawn.
func (l *svgLayout) rowAt(d time.Duration, is func(Item) bool) float64 {
	for i, it := range l.t.Items {
		if is(it) {
			return l.rows[i].y + svgLineH/2
		}
	}
	return l.y(d)
}

// y is where time d is drawn: on the first row at d or whose command was
// running at d, between the rows around it in proportion, or below the last row for a holding that ran
// on past it.
func (l *svgLayout) y(d time.Duration) float64 {
	items := l.t.Items
	mid := func(i int) float64 { return l.rows[i].y + svgLineH/2 }
	i := sort.Search(len(items), func(i int) bool { return items[i].End >= d })
	switch {
	case len(items) == 0:
		return l.top
	case i < len(items) && (items[i].End == d || items[i].At <= d):
		// On the row, or during its command (a DEL deletes a lock when it
		// starts): on the row.
		return mid(i)
	case i == 0:
		return l.top + (mid(0)-l.top)*frac(d, 0, items[0].End)
	case i == len(items):
		last := len(items) - 1
		return mid(last) + (l.bottom-svgLineH/2-mid(last))*frac(d, items[last].End, l.endT)
	}
	return mid(i-1) + (mid(i)-mid(i-1))*frac(d, items[i-1].End, items[i].End)
}

// frac is where d is between a and b, from 0 to 1.
func frac(d, a, b time.Duration) float64 {
	if b <= a {
		return 1
	}
	return min(max(float64(d-a)/float64(b-a), 0), 1)
}

// verdict draws the findings below the rows.
func (l *svgLayout) verdict(b *strings.Builder) {
	y := l.bottom + svgLineH
	for i, f := range l.t.Verdict {
		color := levelColors[check.Good]
		if f.Bad() {
			color = levelColors[check.Bad]
		}
		fmt.Fprintf(b, `<text class="verdict" x="%s" y="%s" fill="%s" xml:space="preserve">`, num(svgMargin), num(y+12), color)
		for j, line := range l.verdicts[i] {
			dy := "0"
			if j > 0 {
				dy = num(svgLineH)
			}
			fmt.Fprintf(b, `<tspan x="%s" dy="%s">%s</tspan>`, num(svgMargin), dy, xmlText(line))
		}
		b.WriteString("</text>\n")
		y += float64(len(l.verdicts[i])) * svgLineH
	}
}

var xmlEscapes = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// xmlText is s safe as XML text or an attribute value.
func xmlText(s string) string { return xmlEscapes.Replace(oneLine(s)) }

// num formats a coordinate: at most one decimal, no trailing zeros.
func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}
