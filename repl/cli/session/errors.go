package session

import (
	"errors"
	"strings"

	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// Describe turns a connection error into the words redis-cli uses, so a
// lesson's "Could not connect to Redis at 127.0.0.1:6379: Connection
// refused" reads the same here. It never includes credentials: go-redis
// errors name the address only.
func Describe(err error, t Target) string {
	if IsServerError(err) {
		if isAuth(err.Error()) {
			return "AUTH failed: " + err.Error()
		}
		return "Error: " + err.Error()
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return fmt.Sprintf("Could not connect to Redis at %s: %s", t.Addr, reason(op.Err))
	}
	if msg, ok := droppedMessage(err); ok {
		return msg
	}
	return "Error: " + err.Error()
}

// dropped are the ways a connection that was open ends, in redis-cli's
// words.
var dropped = []struct {
	err error
	msg string
}{
	{io.EOF, "Error: Server closed the connection"},
	{io.ErrUnexpectedEOF, "Error: Server closed the connection"},
	{syscall.ECONNRESET, "Error: Connection reset by peer"},
	{syscall.EPIPE, "Error: Broken pipe"},
}

func droppedMessage(err error) (string, bool) {
	for _, d := range dropped {
		if errors.Is(err, d.err) {
			return d.msg, true
		}
	}
	return "", false
}

func reason(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Connection refused"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "Connection timed out"
	case errors.As(err, &dns):
		return "Name or service not known"
	case errors.Is(err, syscall.ENOENT):
		return "No such file or directory"
	}
	return err.Error()
}

// IsServerError reports whether err is the server's own answer while the
// connection was being set up (a wrong password, say): the server is up.
func IsServerError(err error) bool {
	var re redis.Error
	return errors.As(err, &re)
}

// IsAuthError reports whether err is the server refusing the credentials.
func IsAuthError(err error) bool { return IsServerError(err) && isAuth(err.Error()) }

func isAuth(msg string) bool {
	return strings.HasPrefix(msg, "WRONGPASS") || strings.HasPrefix(msg, "NOAUTH") ||
		strings.Contains(msg, "AUTH") || strings.Contains(msg, "password")
}

// IsDropped reports whether err says the server closed a connection that
// was open (an end of stream, a reset, a broken pipe), rather than that
// none could be made.
func IsDropped(err error) bool {
	_, ok := droppedMessage(err)
	return ok
}
