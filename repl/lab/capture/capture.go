package capture

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/shellquote"
	"github.com/locklab/locklab/repl/lang/words"
)

// Part is the shell's capture, for the `record` word.
var Part = words.NewPart(func() *Capture { return &Capture{} })

// Capture writes the entries of a REPL session as a lab, while one is
// being recorded. It is safe for concurrent use: jobs deliver replies
// while entries run.
type Capture struct {
	mu    sync.Mutex
	file  string          // "": not recording
	lines []string        // what the file holds so far
	held  []words.Entry   // entries waiting for their jobs to end (see flush)
	shown []session.Event // replies shown since the last entry, every session's
	sent  map[string]bool // every argument of a reply shown since recording began
	keys  []string        // every key a command named since recording began, in order
	bugs  []string        // the bug kinds the verdicts showed since recording began
}

// Found is told of the bug kinds a verdict showed.
func (c *Capture) Found(kinds []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range kinds {
		if c.file != "" && !slices.Contains(c.bugs, k) {
			c.bugs = append(c.bugs, k)
		}
	}
}

// Start begins recording into file (made or replaced at once).
func (c *Capture) Start(file string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file != "" {
		return fmt.Errorf("record: already recording into %s (record stop ends it)", c.file)
	}
	c.file, c.held, c.shown, c.sent, c.keys, c.bugs = file, nil, nil, map[string]bool{}, nil, nil
	c.lines = []string{"# Recorded by locklab's `record`: it checks itself (locklab " + file + ")."}
	if err := c.write(); err != nil {
		c.file = "" // not recording: nothing can be written there
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// Recording is the file being recorded into, or "".
func (c *Capture) Recording() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.file
}

// Saw is told of every reply, and whether it was shown (a macro's
// queries are not).
func (c *Capture) Saw(ev session.Event, shown bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" {
		return
	}
	for _, k := range commands.Keys(ev.Args) {
		if !slices.Contains(c.keys, k) {
			c.keys = append(c.keys, k)
		}
	}
	if !shown {
		return
	}
	c.shown = append(c.shown, ev)
	for _, a := range ev.Args {
		c.sent[a] = true
	}
}

// Entered is told of each entry once it ran.
func (c *Capture) Entered(e words.Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" || isRecordWord(e.Text) {
		c.shown = nil
		return
	}
	e.Text = strings.TrimRight(e.Text, "\n")
	if line := c.expectation(e.Text); line != "" && !e.StartedJobs {
		e.Text += "\n" + line
	}
	c.shown = nil
	c.held = append(c.held, e)
	c.flush(false)
	c.write()
}

// Stop writes what is held and an expectation for each bug the verdicts
// showed (kinds: the verdict's now), and ends recording; it says which
// file it wrote.
func (c *Capture) Stop(kinds []string) (string, error) {
	c.Found(kinds)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" {
		return "", fmt.Errorf("record stop: nothing is being recorded (record FILE.lab starts)")
	}
	c.flush(true)
	c.startEmpty()
	for _, k := range c.bugs {
		c.lines = append(c.lines, "expect verdict "+k)
	}
	err := c.write()
	file := c.file
	c.file = ""
	return file, err
}

// startEmpty puts a DEL of every key the recording touched before its
// first entry: the replies it expects (a SET NX's OK, a DEL's count) were
// given on keys that were not there yet (the embedded Redis starts
// empty), and a server that ran the lab before still holds them.
func (c *Capture) startEmpty() {
	if len(c.keys) == 0 {
		return
	}
	words := append([]string{"DEL"}, c.keys...)
	for i := range words {
		words[i] = shellquote.LabWord(words[i])
	}
	start := []string{"# The keys this lab touches start empty, as they did when it was recorded.", strings.Join(words, " ")}
	c.lines = slices.Insert(c.lines, 1, start...)
}

// flush moves the held entries whose secrets are known into the lines,
// in the order they ran: an entry that started jobs stays held while jobs
// run (they may send a secret yet), and so does every entry after it.
// all flushes them all, as they are now.
func (c *Capture) flush(all bool) {
	for len(c.held) > 0 {
		e := c.held[0]
		if e.StartedJobs && !all && e.JobsRunning != nil && e.JobsRunning() {
			return
		}
		if e.Sent != nil && e.Sent.Sent() {
			c.lines = append(c.lines, "# (an entry that sent a secret is left out)")
		} else {
			c.lines = append(c.lines, strings.TrimRight(e.Text, "\n"))
		}
		c.held = c.held[1:]
	}
}

// expectation is the expect line for an entry that showed one reply in
// its session, or "".
func (c *Capture) expectation(text string) string {
	name, prefix := session.Main, ""
	if first, _, _ := strings.Cut(strings.TrimSpace(text), " "); strings.HasPrefix(first, "@") && len(first) > 1 {
		name, prefix = first[1:], first+" "
	}
	var mine []session.Event
	for _, ev := range c.shown {
		if ev.Session == name && len(ev.Args) > 0 {
			mine = append(mine, ev)
		}
	}
	if len(mine) != 1 {
		return ""
	}
	line := Expect(mine[0].Args, mine[0].Reply, func(v string) bool { return c.sent[v] })
	if strings.HasPrefix(line, "#") {
		return line
	}
	return prefix + line
}

func (c *Capture) write() error {
	return output.WriteFile(c.file, []byte(strings.Join(c.lines, "\n")+"\n"))
}

// isRecordWord reports whether an entry is the record word itself.
func isRecordWord(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && f[0] == "record"
}
