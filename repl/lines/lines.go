package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// Reader is where a run's lines come from: readline on a terminal
// (repl.Terminal), Plain on a pipe or a file.
type Reader interface {
	// ReadLine returns one line without its newline; io.EOF at the end;
	// ErrInterrupt for Ctrl-C while typing.
	ReadLine(prompt string) (string, error)
	// Remember adds a complete entry to the history.
	Remember(entry string)
}

// From reads lines from r, as redis-cli does from a pipe.
func From(r io.Reader) *Plain {
	return &Plain{r: bufio.NewReaderSize(r, 64*1024)}
}

// Plain reads lines with no prompt and no history.
type Plain struct{ r *bufio.Reader }

func (p *Plain) ReadLine(string) (string, error) {
	line, err := p.r.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil // a last line without its newline
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), err
}

// Ready reports whether a whole line is already read and waiting, so the
// next ReadLine will not block.
func (p *Plain) Ready() bool {
	buf, _ := p.r.Peek(p.r.Buffered())
	return bytes.IndexByte(buf, '\n') >= 0
}

func (p *Plain) Remember(string) {}

// ErrInterrupt is what a Reader returns for Ctrl-C while a line is
// typed: the entry being typed is dropped and reading goes on.
var ErrInterrupt = errors.New("interrupted while typing")
