package failover

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Direction names one or both directions of the replication link.
type Direction int

// The directions, named as toxiproxy names them: Downstream is what the
// primary sends the replica (the replicated commands), Upstream what the
// replica sends the primary (PSYNC and the REPLCONF ACKs that WAIT and
// min-replicas-to-write count). (Up is the function that starts a
// topology.)
const (
	Downstream Direction = 1 << iota
	Upstream
	Both = Downstream | Upstream
)

func (d Direction) String() string {
	switch d {
	case Downstream:
		return "primary->replica"
	case Upstream:
		return "replica->primary"
	case Both:
		return "both ways"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// index of the per-direction state of a single direction.
const (
	down = 0
	up   = 1
)

// Proxy is a TCP proxy from 127.0.0.1 (a port the OS chose) to an
// upstream server, with one goroutine pair per connection. Each direction
// can be cut: the proxy keeps the connections open and keeps reading,
// but discards what it reads, as a network partition would. It also hides
// a connection's end from the side a cut direction leads to: the replica
// learns nothing that would make it reconnect and resync.
type Proxy struct {
	upstream string
	ln       net.Listener

	cut       [2]atomic.Bool
	dropped   [2]atomic.Int64
	forwarded [2]atomic.Int64 // bytes passed on, per direction (what a test waits on)

	mu     sync.Mutex
	links  map[*link]struct{}
	closed bool
	wg     sync.WaitGroup
}

// link is one proxied connection: client is the replica's side, server
// the primary's.
type link struct {
	client, server net.Conn
	broken         atomic.Bool // a pump ended while its end was hidden
}

// NewProxy listens on 127.0.0.1 and a free port and forwards every
// connection to upstream.
func NewProxy(upstream string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	p := &Proxy{upstream: upstream, ln: ln, links: map[*link]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port: the address the replica replicates from.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut starts discarding the bytes that flow in dir, on the open
// connections and on new ones. Bytes the proxy already forwarded are not
// affected; every byte read after Cut returns is dropped and counted.
func (p *Proxy) Cut(dir Direction) {
	if dir&Downstream != 0 {
		p.cut[down].Store(true)
	}
	if dir&Upstream != 0 {
		p.cut[up].Store(true)
	}
}

// Heal forwards dir again. The replica does not notice the bytes dropped
// during the cut: it applies what comes next without them, its offset
// stays behind the primary's by exactly the bytes dropped, and so a WAIT
// on the primary can no longer succeed. Only a reconnect ends this: PSYNC
// asks for the primary's stream from the replica's offset, which falls
// inside the dropped bytes (Redis 7.0.15 logs a protocol error, "Desync?",
// and falls back to a full resync). A connection that ended during the
// cut, with its end hidden, is closed now, as the partition would reveal.
func (p *Proxy) Heal(dir Direction) {
	if dir&Downstream != 0 {
		p.cut[down].Store(false)
	}
	if dir&Upstream != 0 {
		p.cut[up].Store(false)
	}
	p.mu.Lock()
	var broken []*link
	for l := range p.links {
		if l.broken.Load() {
			broken = append(broken, l)
		}
	}
	p.mu.Unlock()
	for _, l := range broken {
		p.hangUp(l)
	}
}

// Cutting reports whether the proxy drops the bytes of dir now (for Both:
// of both directions).
func (p *Proxy) Cutting(dir Direction) bool {
	ok := dir != 0
	if dir&Downstream != 0 {
		ok = ok && p.cut[down].Load()
	}
	if dir&Upstream != 0 {
		ok = ok && p.cut[up].Load()
	}
	return ok
}

// Dropped returns the bytes discarded so far, per direction.
func (p *Proxy) Dropped() (down, up int64) {
	return p.dropped[0].Load(), p.dropped[1].Load()
}

// CloseAll closes every connection and forwards nothing more, so nothing
// the proxy still holds can reach the replica later (call it once the
// primary has crashed). New connections are closed as soon as they are
// accepted: the port stays the proxy's until Close, so a replica retrying
// it cannot reach some other server that took the port. The cut state and
// the counts stay.
func (p *Proxy) CloseAll() {
	p.mu.Lock()
	p.closed = true
	links := p.links
	p.links = map[*link]struct{}{}
	p.mu.Unlock()
	for l := range links {
		l.client.Close()
		l.server.Close()
	}
}

// Close is CloseAll, then stops listening and waits for the proxy's
// goroutines to end.
func (p *Proxy) Close() {
	p.CloseAll()
	p.ln.Close()
	p.wg.Wait()
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like
			continue
		}
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed {
			client.Close()
			continue
		}
		server, err := net.DialTimeout("tcp", p.upstream, 5*time.Second)
		if err != nil {
			// The primary is gone. Closing tells the replica, which is what
			// a refused connection does, unless the way back is cut.
			if !p.cut[down].Load() {
				client.Close()
			} else {
				p.hold(client)
			}
			continue
		}
		l := &link{client: client, server: server}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			client.Close()
			server.Close()
			continue
		}
		p.links[l] = struct{}{}
		p.wg.Add(2)
		p.mu.Unlock()
		go p.pump(l, server, client, down)
		go p.pump(l, client, server, up)
	}
}

// hold keeps a replica's connection that has no upstream open and reads
// (and drops) what it sends, until CloseAll.
func (p *Proxy) hold(client net.Conn) {
	l := &link{client: client, server: nopConn{}}
	l.broken.Store(true)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		client.Close()
		return
	}
	p.links[l] = struct{}{}
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := client.Read(buf)
			p.dropped[up].Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
}

// pump copies src to dst for direction dir, discarding while dir is cut.
// When it ends (an end closed, a write failed), each side learns of it
// only if the direction toward it is not cut.
func (p *Proxy) pump(l *link, src, dst net.Conn, dir int) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if p.cut[dir].Load() {
				p.dropped[dir].Add(int64(n))
			} else if _, werr := dst.Write(buf[:n]); werr != nil {
				err = werr
			} else {
				p.forwarded[dir].Add(int64(n))
			}
		}
		if err != nil {
			break
		}
	}
	hidden := false
	if !p.cut[down].Load() {
		l.client.Close()
	} else {
		hidden = true
	}
	if !p.cut[up].Load() {
		l.server.Close()
	} else {
		hidden = true
	}
	if hidden {
		l.broken.Store(true)
		return
	}
	p.forget(l)
}

func (p *Proxy) hangUp(l *link) {
	l.client.Close()
	l.server.Close()
	p.forget(l)
}

func (p *Proxy) forget(l *link) {
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// nopConn stands in for the upstream of a held connection.
type nopConn struct{ net.Conn }

func (nopConn) Close() error { return nil }
