package lines

import (
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// NewParser returns a parser for the lab language: POSIX mode, in which
// lower-case `select 1` and `time` stay simple commands (in bash mode the
// first is a syntax error and the second a keyword).
func NewParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(false))
}

// continuationPrompt is shown while an entry is incomplete.
const continuationPrompt = "> "

// Feed is the parser's input: one line of a Reader at a time, asked
// for with the right prompt (a continuation's while the parser needs
// more), with a pasted prompt dropped from the front of each line that
// starts an entry. It keeps the current entry's text for the history.
type Feed struct {
	lr     Reader
	Parser *syntax.Parser // the parser reading it: its Incomplete decides the prompt
	prompt func() string  // nil: none (a pipe, a file)
	buf    []byte
	lines  int             // lines read so far
	entry  strings.Builder // the current entry's lines
	cont   bool            // the last line ended in a `\` continuation
	err    error           // the reader's error, once it came
}

func (f *Feed) Read(p []byte) (int, error) {
	if len(f.buf) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		inside := f.cont || f.Parser.Incomplete()
		line, err := f.lr.ReadLine(f.promptFor(inside))
		if err == io.EOF && inside && f.prompt != nil {
			err = ErrInterrupt // Ctrl-D in an unfinished entry at the prompt drops the entry, not the REPL
		}
		if err != nil {
			f.err = err
			return 0, err
		}
		if !inside {
			if mayHavePrompt(line) {
				line = promptPrefix().ReplaceAllString(line, "")
			}
			f.entry.Reset()
		}
		f.cont = endsInContinuation(line)
		f.entry.WriteString(line + "\n")
		f.buf = append(f.buf[:0], line+"\n"...)
		f.lines += 1 + strings.Count(line, "\n") // a line recalled from the history may hold several
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// NewFeed is a feed of r's lines; prompt gives the REPL's prompt (nil:
// none).
func NewFeed(r Reader, prompt func() string) *Feed { return &Feed{lr: r, prompt: prompt} }

// Err is the reader's error (io.EOF at the end), once it came.
func (f *Feed) Err() error { return f.err }

// Entry is the text of the current entry, for the history.
func (f *Feed) Entry() string { return f.entry.String() }

// Lines is how many lines were read so far.
func (f *Feed) Lines() int { return f.lines }

// Restart drops what is left of a line a parser stopped in (a syntax
// error), and a Ctrl-C while typing, so that a new parser reads on.
func (f *Feed) Restart(p *syntax.Parser) {
	f.Parser, f.buf, f.cont = p, f.buf[:0], false
	if errors.Is(f.err, ErrInterrupt) {
		f.err = nil
	}
}

func (f *Feed) promptFor(inside bool) string {
	switch {
	case f.prompt == nil:
		return ""
	case inside:
		return continuationPrompt
	}
	return f.prompt()
}

// promptPrefix matches the prompts that lessons and terminals put in front
// of a command: a shell's "$ ", redis-cli's "127.0.0.1:6379> " (with its
// "[db]" and "(TX)"), the docs' "redis> ", and locklab's own prompts.
var promptPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\$ |(redis|embedded|not connected|[\w.-]+:\d+)(\[\d+\])?(\(TX\))?> )`)
})

// mayHavePrompt reports whether line could start with a promptPrefix:
// every prompt ends in "> " but the shell's "$ ". It spares the pattern
// (and its compiling) the lines that cannot, most of them.
func mayHavePrompt(line string) bool {
	return strings.HasPrefix(line, "$ ") || strings.Contains(line, "> ")
}

// endsInContinuation reports whether a line ends in an odd number of
// backslashes, i.e. in a `\` that escapes the newline.
func endsInContinuation(line string) bool {
	n := len(line) - len(strings.TrimRight(line, "\\"))
	return n%2 == 1
}

// Normalize is src as the lab reads it: with the prompts people paste
// along with a command (`$ `, `127.0.0.1:6379> `, `redis> `) dropped from
// the front of each line that starts an entry. Lines continuing an open
// quote or a trailing `\` are left alone: inside a Lua script "$ " is data.
func Normalize(src string) string {
	var b strings.Builder
	f := NewFeed(From(strings.NewReader(src)), nil)
	for f.err == nil {
		f.Parser = NewParser()
		for _, err := range f.Parser.InteractiveSeq(io.TeeReader(f, &b)) {
			if err != nil {
				break
			}
		}
	}
	out := b.String()
	if !strings.HasSuffix(src, "\n") {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// ReadWhole parses every line of r, a script named name: a syntax
// error's position starts with the name.
func ReadWhole(r Reader, name string) (*syntax.File, error) {
	f := NewFeed(r, nil)
	f.Restart(NewParser())
	var stmts []*syntax.Stmt
	for part, err := range f.Parser.InteractiveSeq(f) {
		if err != nil {
			return nil, named(err, name)
		}
		if !f.Parser.Incomplete() {
			stmts = append(stmts, part...)
		}
	}
	if err := f.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	return &syntax.File{Name: name, Stmts: stmts}, nil
}

// named puts a script's name in front of a syntax error's position.
func named(err error, name string) error {
	var perr syntax.ParseError
	if errors.As(err, &perr) {
		perr.Filename = name
		return perr
	}
	return err
}
