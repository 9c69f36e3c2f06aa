package output

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"regexp"
	"sync"
	"time"

	"github.com/fatih/color"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Output is one terminal's (or stdout's) writer for all sessions: whole
// lines, each with its session's gutter once several sessions write.
type Output struct {
	term    io.Writer // the real destinations, behind mu
	termErr io.Writer
	mu      sync.Mutex
	gutter  bool   // print gutters at all (a terminal, or --gutter)
	on      bool   // gutters are on for this run: it has several sessions
	first   string // the first session that wrote in this run
	start   time.Time
	now     func() time.Time // the gutters' clock
	width   int              // the longest session name so far, to align gutters
	colors  map[string]*color.Color
	color   bool     // colour the gutters
	lines   [][]byte // this run's lines, without gutters (expect lines)

	// Lock order: wmu, then a LineWriter's mu, then mu (Flush takes all
	// three; Write the last two).
	wmu     sync.Mutex
	writers map[string][2]*LineWriter // name -> stdout, stderr
}

// maxLines bounds the lines a run keeps for expect lines.
const maxLines = 100000

// Count is how many of this run's lines match re.
func (o *Output) Count(re *regexp.Regexp) int {
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

// sessionPalette is the sessions' colours: readable on dark and light
// backgrounds alike (no plain blue, dim on dark; no yellow, faint on
// light). main is bold in the terminal's own colour.
var sessionPalette = []color.Attribute{color.FgCyan, color.FgMagenta, color.FgGreen, color.FgHiBlue, color.FgRed, color.FgHiMagenta}

// ColorOf is the colour attribute of session name: a function of its
// name, so that alice has the same colour in every run.
func ColorOf(name string) color.Attribute {
	if name == "main" {
		return color.Bold
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return sessionPalette[h.Sum32()%uint32(len(sessionPalette))]
}

// New makes the output for term (stdout) and termErr (stderr); gutter
// allows gutters at all, colored colours them.
func New(term, termErr io.Writer, gutter, colored bool) *Output {
	return &Output{term: term, termErr: termErr, gutter: gutter, color: colored, colors: map[string]*color.Color{}, width: 4, start: time.Now(), now: time.Now, writers: map[string][2]*LineWriter{}}
}

// SetClock makes the gutters' times read now (a virtual clock's) instead
// of the wall clock; set it before the first run.
func (o *Output) SetClock(now func() time.Time) { o.now = now }

// BeginRun starts a run at start, with gutters if it starts sessions,
// aligned for their names.
func (o *Output) BeginRun(start time.Time, sessions []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.start, o.on, o.first, o.lines = start, o.gutter && len(sessions) > 0, "", nil
	for _, n := range sessions {
		o.width = max(o.width, len(shownName(n)))
	}
}

// writeLines writes complete lines for session name, each with its gutter.
func (o *Output) writeLines(name string, stderr bool, lines []byte) {
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

func (o *Output) prefix(name string) string {
	shown := shownName(name)
	o.width = max(o.width, len(shown))
	at := fmt.Sprintf("+%.3fs", o.now().Sub(o.start).Seconds())
	return o.colorOf(name).Sprintf("%-*s %s │ ", o.width, shown, at)
}

// shownName is a session's name as its gutter shows it: a job may be
// named after a value it read, so the name is shown as resp.Printable
// shows a value (quoted when it holds a control character, which would break the
// line or act on the terminal).
func shownName(name string) string { return resp.Printable(name) }

// colorOf is session name's colour, the same everywhere it shows.
func (o *Output) colorOf(name string) *color.Color {
	c := o.colors[name]
	if c == nil {
		c = Paint(o.color, ColorOf(name))
		o.colors[name] = c
	}
	return c
}

// PaintLane colours text in session lane's colour.
func (o *Output) PaintLane(lane, text string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.colorOf(lane).Sprint(text)
}

// LineWriter is one session's stdout or stderr: it holds a partial line
// until its newline comes, so concurrent sessions never interleave
// mid-line.
type LineWriter struct {
	out     *Output
	session string
	stderr  bool
	mu      sync.Mutex
	partial []byte
}

func (w *LineWriter) Write(p []byte) (int, error) {
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
func (w *LineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.out.writeLines(w.session, w.stderr, append(w.partial, '\n'))
		w.partial = nil
	}
}

// Close flushes; the interpreter closes a redirection's file when the
// command ends. The writer stays usable: the session may write again.
func (w *LineWriter) Close() error             { w.Flush(); return nil }
func (w *LineWriter) Read([]byte) (int, error) { return 0, io.EOF }

// Stderr reports whether w is a session's stderr.
func (w *LineWriter) Stderr() bool { return w.stderr }

// Writers returns session name's stdout and stderr, made on first use.
func (o *Output) Writers(name string) (stdout, stderr *LineWriter) {
	o.wmu.Lock()
	defer o.wmu.Unlock()
	w, ok := o.writers[name]
	if !ok {
		w = [2]*LineWriter{{out: o, session: name}, {out: o, session: name, stderr: true}}
		o.writers[name] = w
	}
	return w[0], w[1]
}

// Flush writes every session's last partial line.
func (o *Output) Flush() {
	o.wmu.Lock()
	defer o.wmu.Unlock()
	for _, w := range o.writers {
		w[0].Flush()
		w[1].Flush()
	}
}

// Paint returns a colour for attrs, on or off as the output wants.
func Paint(on bool, attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if on {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return c
}

// Level says how a note reads: a plain fact, a fix that held, or a bug.
type Level int

const (
	Info Level = iota
	Good
	Bad
)

// noteAttrs are the colours of a note's level.
var noteAttrs = map[Level][]color.Attribute{
	Info: {color.FgCyan},
	Good: {color.FgGreen},
	Bad:  {color.FgRed, color.Bold},
}

// Note colours text as a note of level.
func (o *Output) Note(level Level, text string) string {
	return Paint(o.color, noteAttrs[level]...).Sprint(text)
}

// Session is the session w writes for.
func (w *LineWriter) Session() string { return w.session }

// Gutters reports whether lines carry their session's gutter in this
// run: when they do not, a note must name its session itself.
func (o *Output) Gutters() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.on
}

// Drawing writes a drawing (a timeline) to the terminal whole, with no
// gutter: it is sized to the terminal's width already.
func (o *Output) Drawing(text string) {
	o.Flush()
	o.mu.Lock()
	defer o.mu.Unlock()
	io.WriteString(o.term, text)
}

// TerminalErr is the real stderr, for what draws itself in place (a
// progress bar).
func (o *Output) TerminalErr() io.Writer { return o.termErr }
