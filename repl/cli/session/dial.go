package session

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

func (c *Conn) options() *redis.Options {
	protocol := 2
	if c.target.RESP3 {
		protocol = 3
	}
	buffer := 0 // go-redis's default, 32 KiB each way
	if c.target.InProcess != nil {
		buffer = 4096 // a pipe's commands are small, and explore opens thousands of connections
	}
	return &redis.Options{
		ReadBufferSize: buffer, WriteBufferSize: buffer,
		Network: c.target.Network, Addr: c.target.Addr, Dialer: dialer(c.target),
		Username: c.user, Password: c.pass, DB: c.db, ClientName: c.name,
		Protocol: protocol, DisableIdentity: true,
		PoolSize: 1, MaxRetries: -1, MinIdleConns: 0,
		PipelinePoolSize: -1, // pipelines must use the session's one connection
		DialTimeout:      dialTimeout,
		DialerRetries:    1, // one attempt, as redis-cli makes: a server that is down says so at once
		// No socket deadlines at all (-2: not even a cleared one before
		// each read and write, which costs a timer update each time): a
		// blocking command may wait for ever, and Ctrl-C cuts any command
		// by closing the connection.
		ReadTimeout: -2, WriteTimeout: -2,
	}
}

// dialTimeout bounds a dial and a TLS handshake.
const dialTimeout = 5 * time.Second

// dialer dials within dialTimeout, and with TLS, handshakes within it too:
// go-redis's own TLS dial has no bound of its own on the handshake, so
// `--tls` against a plain-text server (which waits for a line the
// ClientHello never ends) hung for ever, deaf to Ctrl-C.
func dialer(t Target) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if t.InProcess != nil {
		return func(ctx context.Context, _, _ string) (net.Conn, error) { return t.InProcess.Dial(ctx) }
	}
	config := t.TLS
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, dialTimeout)
		defer cancel()
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil || config == nil {
			return conn, err
		}
		tc := tls.Client(conn, config)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS handshake with %s: %w (is it a TLS port?)", addr, err)
		}
		return tc, nil
	}
}
