package pipe

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Result is what a pipe counted.
type Result struct{ Errors, Replies int64 }

// Run sends in on conn, reads the replies until the mark's, and reports
// as redis-cli does. timeout bounds the wait for a reply (0: for ever).
// The error is set when the pipe did not finish: the server closed the
// connection, or no reply came within timeout (already said on stderr).
func Run(conn net.Conn, in io.Reader, stdout, stderr io.Writer, timeout time.Duration) (Result, error) {
	mark := newMark()
	written := make(chan error, 1)
	go func() {
		err := send(conn, in, mark)
		written <- err
		if err != nil {
			conn.Close() // no mark will come: the reader stops at once
		}
	}()
	res, err := count(conn, stderr, mark, timeout, written)
	if err == nil {
		fmt.Fprintf(stdout, "All data transferred. Waiting for the last reply...\nLast reply received from server.\nerrors: %d, replies: %d\n", res.Errors, res.Replies)
	}
	return res, err
}

// send copies in to conn, then the ECHO of mark.
func send(conn net.Conn, in io.Reader, mark string) error {
	w := bufio.NewWriterSize(conn, 64<<10)
	if _, err := io.Copy(w, in); err != nil {
		return err
	}
	if _, err := w.Write(resp.Command("ECHO", mark)); err != nil {
		return err
	}
	return w.Flush()
}

// count reads replies until the mark's, counting them and the errors
// (each error's text on stderr, as redis-cli prints it). The mark's
// reply is the end only once everything was written.
func count(conn net.Conn, stderr io.Writer, mark string, timeout time.Duration, written <-chan error) (Result, error) {
	var res Result
	r := resp.NewReader(conn)
	for {
		if timeout > 0 {
			conn.SetReadDeadline(time.Now().Add(timeout))
		}
		reply, _, err := r.Read()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			fmt.Fprintf(stderr, "No replies for %d seconds: exiting.\n", int(timeout.Seconds()))
			return res, err
		case err != nil:
			select {
			case werr := <-written:
				if werr != nil {
					fmt.Fprintf(stderr, "Error sending the input: %v\n", werr)
					return res, werr
				}
			default:
			}
			fmt.Fprintf(stderr, "Error reading replies from server: %v\n", err)
			return res, err
		case reply.Kind == resp.Bulk && reply.Str == mark:
			if err := <-written; err != nil {
				fmt.Fprintf(stderr, "Error writing to the server: %v\n", err)
				return res, err
			}
			return res, nil
		case reply.IsError():
			res.Errors++
			fmt.Fprintln(stderr, reply.Str)
		}
		res.Replies++
	}
}

// newMark is redis-cli's: 20 random bytes, as hex.
func newMark() string {
	b := make([]byte, 20)
	rand.Read(b)
	return hex.EncodeToString(b)
}
