package repl

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// LineReader is where entries come from: readline on a terminal, a plain
// reader otherwise.
type LineReader interface {
	// ReadLine returns one line without its newline. On a terminal,
	// Ctrl-C gives ErrInterrupt and Ctrl-D on an empty line io.EOF.
	ReadLine(prompt string) (string, error)
	// Remember adds a complete entry to the history.
	Remember(entry string)
	Close() error
}

// plainReader reads lines from a pipe or file, with no prompt.
type plainReader struct{ r *bufio.Reader }

// NewPlainReader reads lines from r, as redis-cli does from a pipe.
func NewPlainReader(r io.Reader) LineReader {
	return &plainReader{r: bufio.NewReaderSize(r, 64*1024)}
}

func (p *plainReader) ReadLine(string) (string, error) {
	line, err := p.r.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil // a last line without its newline
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), err
}

// Ready reports whether a whole line is already read and waiting, so the
// next ReadLine will not block.
func (p *plainReader) Ready() bool {
	buf, _ := p.r.Peek(p.r.Buffered())
	return bytes.IndexByte(buf, '\n') >= 0
}

func (p *plainReader) Remember(string) {}
func (p *plainReader) Close() error    { return nil }
