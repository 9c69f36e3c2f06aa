package session

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/locklab/locklab/repl/cli/cliflags"
)

// Target says which server to talk to and how: what redis-cli's connection
// flags describe.
type Target struct {
	Network  string // "tcp" or "unix"
	Addr     string // host:port, or a socket path
	User     string
	Password string // a secret: never print it
	DB       int
	RESP3    bool
	TLS      *tls.Config
	Embedded bool   // the in-process server locklab started
	Role     string // what the server is to the lab ("the cluster's primary"), for messages
	// InProcess, when set, opens connections in process instead of over
	// the network (an embedded server's pipes).
	InProcess Dialer
	// Links, when set, keeps the connections closed sessions leave, for
	// the next sessions of the same names on the same server (explore's
	// schedules: see Links).
	Links *Links
}

// Dialer opens a connection in process.
type Dialer interface {
	Dial(ctx context.Context) (net.Conn, error)
}

// Label is how the prompt and messages name the server: "embedded" for the
// in-process one, host:port (or the socket path) otherwise.
func (t Target) Label() string {
	switch {
	case t.Embedded:
		return "embedded"
	case t.Role != "":
		return t.Role + " " + t.Addr
	}
	return t.Addr
}

// NewTarget builds a target from parsed flags. base gives the defaults
// (the server locklab is connected to); the flags override it, as they do
// for a redis-cli run inside a lesson script.
func NewTarget(o *cliflags.Options, base Target) (Target, error) {
	t := base
	if o.Set["host"] || o.Set["port"] {
		host, port := "127.0.0.1", 6379
		if h, p, err := net.SplitHostPort(base.Addr); err == nil && !base.Embedded {
			host = h
			port, _ = strconv.Atoi(p)
		}
		if o.Set["host"] {
			host = o.Host
		}
		if o.Set["port"] {
			port = o.Port
		}
		t.Network, t.Addr, t.Embedded = "tcp", net.JoinHostPort(host, strconv.Itoa(port)), false
	}
	if o.Set["socket"] {
		t.Network, t.Addr, t.Embedded = "unix", o.Socket, false
	}
	t.applyAuth(o)
	if o.Set["db"] {
		t.DB = o.DB
	}
	t.RESP3 = o.RESP3
	if o.TLS {
		cfg, err := tlsConfig(o, t.Addr)
		if err != nil {
			return Target{}, err
		}
		t.TLS = cfg
	}
	return t, nil
}

func (t *Target) applyAuth(o *cliflags.Options) {
	if o.Set["user"] {
		t.User = o.User
	}
	if o.Set["password"] {
		t.Password = o.Password
	}
}

func tlsConfig(o *cliflags.Options, addr string) (*tls.Config, error) {
	host, _, _ := net.SplitHostPort(addr)
	cfg := &tls.Config{ServerName: host, InsecureSkipVerify: o.TLSInsecure}
	if o.SNI != "" {
		cfg.ServerName = o.SNI
	}
	if o.CACert != "" {
		pem, err := os.ReadFile(o.CACert)
		if err != nil {
			return nil, fmt.Errorf("reading --cacert: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--cacert %s holds no PEM certificate", o.CACert)
		}
	}
	if o.Cert != "" || o.Key != "" {
		pair, err := tls.LoadX509KeyPair(o.Cert, o.Key)
		if err != nil {
			return nil, fmt.Errorf("reading --cert/--key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// OnThisMachine reports whether t is a server on this machine: a Unix
// socket or a loopback address (the embedded one too).
func (t Target) OnThisMachine() bool {
	if t.Network == "unix" || t.Embedded {
		return true
	}
	host, _, err := net.SplitHostPort(t.Addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
