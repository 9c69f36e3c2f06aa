package resp

import (
	"bytes"
	"errors"
	"io"
	"strconv"
)

// Command returns args as a RESP array of bulk strings: a command the way
// redis-cli and every client send one.
func Command(args ...string) []byte {
	b := []byte("*" + strconv.Itoa(len(args)) + "\r\n")
	for _, a := range args {
		b = append(b, "$"+strconv.Itoa(len(a))+"\r\n"...)
		b = append(b, a...)
		b = append(b, "\r\n"...)
	}
	return b
}

// Reader reads replies one after another from a stream, such as a
// connection to a server, with [Parse]. It keeps what it has read past a
// reply for the next one, so replies may arrive in pieces or together.
type Reader struct {
	r   io.Reader
	buf []byte // read but not yet parsed
}

// NewReader returns a Reader that reads from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: r} }

// Read returns the next reply and a copy of the bytes it came in. The
// error is the stream's own ([io.EOF] when it ends between replies),
// [io.ErrUnexpectedEOF] when it ends inside one, or a *[ProtocolError]
// when what came is not RESP.
func (r *Reader) Read() (Reply, []byte, error) {
	for {
		reply, n, err := Parse(r.buf)
		if err == nil {
			raw := bytes.Clone(r.buf[:n])
			r.buf = r.buf[n:]
			return reply, raw, nil
		}
		if !errors.Is(err, ErrIncomplete) {
			return Reply{}, nil, err
		}
		if err := r.fill(); err != nil {
			return Reply{}, nil, err
		}
	}
}

// fill reads more of the stream onto r.buf. It makes room for at least as
// many bytes as r.buf holds, so a long reply is parsed again only a few
// times.
func (r *Reader) fill() error {
	if room := max(4096, len(r.buf)); cap(r.buf)-len(r.buf) < room {
		r.buf = append(make([]byte, 0, len(r.buf)+room), r.buf...)
	}
	n, err := r.r.Read(r.buf[len(r.buf):cap(r.buf)])
	r.buf = r.buf[:len(r.buf)+n]
	switch {
	case n > 0:
		return nil // an error with data comes again on the next read
	case err == io.EOF && len(r.buf) > 0:
		return io.ErrUnexpectedEOF
	}
	return err
}
