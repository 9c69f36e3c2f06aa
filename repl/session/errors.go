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
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "Error: Server closed the connection"
	case errors.Is(err, syscall.ECONNRESET):
		return "Error: Connection reset by peer"
	case errors.Is(err, syscall.EPIPE):
		return "Error: Broken pipe"
	}
	return "Error: " + err.Error()
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
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
