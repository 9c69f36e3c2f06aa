package shell

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"
)

// output is where everything the lab prints ends up: one writer (the
// terminal, or stdout), written a whole line at a time, with a gutter
// naming the session and the time since the run began once several
// sessions are in play (`alice +0.301s │ alice: booked (saw count=0)`).
type output struct {
	term    io.Writer // the real destinations, behind mu
	termErr io.Writer
	mu      sync.Mutex
	gutter  bool   // print gutters at all (a terminal, or --gutter)
	on      bool   // gutters are on for this run: it has several sessions
	first   string // the first session that wrote in this run
	start   time.Time
	width   int // the longest session name so far, to align gutters
	colors  map[string]*color.Color
	color   bool     // colour the gutters
	lines   [][]byte // this run's lines, without gutters (expect lines)
}

// maxLines bounds the lines a run keeps for expect lines.
const maxLines = 100000

// count is how many of this run's lines match re.
func (o *output) count(re *regexp.Regexp) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, l := range o.lines {
		if re.Match(l) {
			n++
		}
	}
	return n
}

var sessionPalette = []color.Attribute{color.FgBlue, color.FgMagenta, color.FgYellow, color.FgGreen, color.FgCyan, color.FgRed}

func newOutput(term, termErr io.Writer, gutter, colored bool) *output {
	return &output{term: term, termErr: termErr, gutter: gutter, color: colored, colors: map[string]*color.Color{}, width: 4, start: time.Now()}
}

// beginRun starts a run at start, with gutters if it starts sessions,
// aligned for their names.
func (o *output) beginRun(start time.Time, sessions []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.start, o.on, o.first, o.lines = start, o.gutter && len(sessions) > 0, "", nil
	for _, n := range sessions {
		o.width = max(o.width, len(n))
	}
}

// writeLines writes complete lines for session name, each with its gutter.
func (o *output) writeLines(name string, stderr bool, lines []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	dst := o.term
	if stderr {
		dst = o.termErr
	}
	if o.first == "" {
		o.first = name
	}
	o.on = o.on || (o.gutter && name != o.first) // a second session: gutters from here on
	if !stderr {
		for _, l := range bytes.SplitAfter(lines, []byte("\n")) {
			if len(l) > 0 && len(o.lines) < maxLines {
				o.lines = append(o.lines, bytes.TrimSuffix(l, []byte("\n")))
			}
		}
	}
	if !o.on {
		dst.Write(lines)
		return
	}
	var b bytes.Buffer
	prefix := o.prefix(name)
	for _, line := range bytes.SplitAfter(lines, []byte("\n")) {
		if len(line) > 0 {
			b.WriteString(prefix)
			b.Write(line)
		}
	}
	dst.Write(b.Bytes())
}

func (o *output) prefix(name string) string {
	o.width = max(o.width, len(name))
	at := fmt.Sprintf("+%.3fs", time.Since(o.start).Seconds())
	return o.colorOf(name).Sprintf("%-*s %s │ ", o.width, name, at)
}

// colorOf is session name's colour, the same everywhere it shows.
func (o *output) colorOf(name string) *color.Color {
	c := o.colors[name]
	if c == nil {
		c = paint(o.color, sessionPalette[len(o.colors)%len(sessionPalette)])
		o.colors[name] = c
	}
	return c
}

// paintLane colours text in session lane's colour.
func (o *output) paintLane(lane, text string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.colorOf(lane).Sprint(text)
}

// lineWriter is one session's stdout or stderr: it holds a partial line
// until its newline comes, so concurrent sessions never interleave
// mid-line.
type lineWriter struct {
	out     *output
	session string
	stderr  bool
	mu      sync.Mutex
	partial []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	if i := bytes.LastIndexByte(w.partial, '\n'); i >= 0 {
		w.out.writeLines(w.session, w.stderr, w.partial[:i+1])
		w.partial = append([]byte(nil), w.partial[i+1:]...)
	}
	return len(p), nil
}

// Flush writes a last line that has no newline.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.out.writeLines(w.session, w.stderr, append(w.partial, '\n'))
		w.partial = nil
	}
}

// Close flushes; the interpreter closes a redirection's file when the
// command ends. The writer stays usable: the session may write again.
func (w *lineWriter) Close() error             { w.Flush(); return nil }
func (w *lineWriter) Read([]byte) (int, error) { return 0, io.EOF }

// sessionFile parses /dev/locklab/NAME[/err].
func sessionFile(path string) (name string, stderr, ok bool) {
	rest, found := strings.CutPrefix(path, sessionDevice)
	if !found {
		return "", false, false
	}
	name, stderr = strings.CutSuffix(rest, "/err")
	if name == "" || name == "/err" {
		name = "job" // `book $w &` with $w empty
	}
	return name, stderr, true
}

// writers are the line writers of each session, made on first use.
type writers struct {
	out *output
	mu  sync.Mutex
	all map[string][2]*lineWriter // name -> stdout, stderr
}

func (ws *writers) get(name string) (stdout, stderr *lineWriter) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.all == nil {
		ws.all = map[string][2]*lineWriter{}
	}
	w, ok := ws.all[name]
	if !ok {
		w = [2]*lineWriter{{out: ws.out, session: name}, {out: ws.out, session: name, stderr: true}}
		ws.all[name] = w
	}
	return w[0], w[1]
}

// flush writes every session's last partial line.
func (ws *writers) flush() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, w := range ws.all {
		w[0].Flush()
		w[1].Flush()
	}
}
