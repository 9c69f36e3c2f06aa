package resp_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/locklab/locklab/repl/cli/resp"
)

func TestCommand(t *testing.T) {
	t.Parallel()
	got := string(resp.Command("SET", "k", "a\r\nb", ""))
	want := "*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\na\r\nb\r\n$0\r\n\r\n"
	if got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
	// What a client sends is what a server reads: an array of bulks.
	r, _, err := resp.Parse(resp.Command("GET", "k"))
	if err != nil || r.String() != `["GET" "k"]` {
		t.Errorf("Parse(Command(GET k)) = %v, %v", r, err)
	}
}

// TestReaderPieces reads replies that arrive a byte at a time, and two
// that arrive in one read, with the exact bytes of each.
func TestReaderPieces(t *testing.T) {
	t.Parallel()
	const first, second = "*2\r\n$1\r\na\r\n:7\r\n", "+OK\r\n"
	for name, in := range map[string]io.Reader{
		"bytewise": iotest.OneByteReader(strings.NewReader(first + second)),
		"together": strings.NewReader(first + second),
	} {
		r := resp.NewReader(in)
		for _, want := range []string{first, second} {
			_, raw, err := r.Read()
			if err != nil || string(raw) != want {
				t.Errorf("%s: Read = %q, %v; want %q", name, raw, err, want)
			}
		}
		if _, _, err := r.Read(); err != io.EOF {
			t.Errorf("%s: Read at the end = %v, want io.EOF", name, err)
		}
	}
}

// TestReaderLong reads a reply much longer than one read, as COMMAND
// DOCS is.
func TestReaderLong(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 1<<20)
	in := io.MultiReader(strings.NewReader("$1048576\r\n"), iotest.HalfReader(strings.NewReader(body+"\r\n")))
	reply, _, err := resp.NewReader(in).Read()
	if err != nil || reply.Kind != resp.Bulk || reply.Str != body {
		t.Errorf("Read = %v %d bytes, %v; want a bulk of %d", reply.Kind, len(reply.Str), err, len(body))
	}
}

func TestReaderErrors(t *testing.T) {
	t.Parallel()
	r := resp.NewReader(strings.NewReader("$5\r\nab"))
	if _, _, err := r.Read(); err != io.ErrUnexpectedEOF {
		t.Errorf("a stream that ends inside a reply: %v, want io.ErrUnexpectedEOF", err)
	}
	var perr *resp.ProtocolError
	r = resp.NewReader(strings.NewReader("+OK\r\nHTTP/1.1 200 OK\r\n"))
	if reply, _, err := r.Read(); err != nil || reply.Str != "OK" {
		t.Errorf("the reply before the garbage: %v, %v", reply, err)
	}
	if _, _, err := r.Read(); !errors.As(err, &perr) {
		t.Errorf("not RESP: %v, want a ProtocolError", err)
	}
	broken := errors.New("connection reset")
	r = resp.NewReader(io.MultiReader(strings.NewReader(":1"), iotest.ErrReader(broken)))
	if _, _, err := r.Read(); err != broken {
		t.Errorf("a stream that breaks: %v, want its error", err)
	}
}
