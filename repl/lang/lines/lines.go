package lines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Reader is where a run's lines come from: readline on a terminal
// (repl.Terminal), Plain on a pipe or a file.
type Reader interface {
	// ReadLine returns one line without its newline; io.EOF at the end;
	// ErrInterrupt for Ctrl-C while typing.
	ReadLine(prompt string) (string, error)
	// Remember adds a complete entry to the history: one that ran, once
	// it ran, and only if it sent no secret (repl/lang/shell decides, from
	// what reached a server); or one with a syntax error, to be mended.
	Remember(entry string)
}

// From reads lines from r, as redis-cli does from a pipe. Its buffer
// holds 64 KiB, or all of r when r says how much it holds (a script in
// memory, a typed line): explore reads a script in every schedule, and
// a buffer that big was a quarter of what a schedule allocated.
func From(r io.Reader) *Plain {
	size := 64 * 1024
	if sized, ok := r.(interface{ Len() int }); ok {
		size = min(size, sized.Len()+1) // bufio's floor is 16 bytes; a longer line is gathered
	}
	return &Plain{r: bufio.NewReaderSize(r, size)}
}

// Plain reads lines with no prompt and no history.
type Plain struct{ r *bufio.Reader }

func (p *Plain) ReadLine(string) (string, error) {
	chunk, err := p.r.ReadSlice('\n')
	var long []byte // a line longer than the buffer, gathered
	for err == bufio.ErrBufferFull {
		if long = append(long, chunk...); len(long) > MaxLine {
			return "", ErrLineTooLong
		}
		chunk, err = p.r.ReadSlice('\n')
	}
	line := string(chunk)
	if long != nil {
		line = string(append(long, chunk...))
	}
	if err == io.EOF && line != "" {
		err = nil // a last line without its newline
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), err
}

// MaxLine bounds one line: far above any command's (a 1 MB value makes a
// 1 MB line), it keeps a file with no line breaks (/dev/zero) from
// filling the memory.
const MaxLine = 64 << 20

// ErrLineTooLong is a line over MaxLine.
var ErrLineTooLong = fmt.Errorf("a line of over %d MiB: not a lab script or a command", MaxLine>>20)

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
