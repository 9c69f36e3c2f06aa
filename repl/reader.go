package repl

import (
	"bufio"
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
type plainReader struct{ sc *bufio.Scanner }

// NewPlainReader reads lines from r, as redis-cli does from a pipe.
func NewPlainReader(r io.Reader) LineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 512*1024*1024) // a pasted value may be large
	return &plainReader{sc: sc}
}

func (p *plainReader) ReadLine(string) (string, error) {
	if p.sc.Scan() {
		return strings.TrimSuffix(p.sc.Text(), "\r"), nil
	}
	if err := p.sc.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}

func (p *plainReader) Remember(string) {}
func (p *plainReader) Close() error    { return nil }
