package failover

// The commands the failover lab sends to its servers, and the waits
// and process checks around them.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
)

// PromoteReplica sends REPLICAOF NO ONE to the server at addr and waits
// until it reports role:master.
func PromoteReplica(ctx context.Context, addr string) error {
	c := dial(addr, "locklab-promote")
	defer c.Close()
	if err := expect(ctx, c, []string{"REPLICAOF", "NO", "ONE"}, okStatus); err != nil {
		return err
	}
	return poll(ctx, 5*time.Second, func() (bool, error) {
		in, err := info(ctx, c, "replication")
		return err == nil && in["role"] == "master", nil
	}, "role:master after REPLICAOF NO ONE")
}

// WaitLinkDown waits until the replica at addr reports
// master_link_status:down (it noticed its primary is gone).
func WaitLinkDown(ctx context.Context, addr string) error {
	c := dial(addr, "locklab-link")
	defer c.Close()
	return poll(ctx, 10*time.Second, func() (bool, error) {
		in, err := info(ctx, c, "replication")
		if err != nil {
			return false, err
		}
		return in["master_link_status"] == "down", nil
	}, "master_link_status:down")
}

// PauseTimeout is how long PauseCut pauses the replica's writes, should
// PauseHeal never come.
const PauseTimeout = 60 * time.Second

// PauseCut is the cut for servers locklab does not own: CLIENT PAUSE
// WRITE on the replica. Its link to the primary stays up and keeps
// receiving, but the replica postpones applying what arrives (the client
// of its primary is not exempt from a pause) and so never acknowledges
// it; reads keep working. If the link drops before PauseHeal, the replica
// discards the commands it had not applied. That is Redis internals
// (replicationCacheMaster clears the query buffer), measured on 7.0.15
// (the 7.2 source reportedly has the same code), not a documented
// promise: check it by the offsets (Status, Observe).
func PauseCut(ctx context.Context, replicaAddr string) error {
	c := dial(replicaAddr, "locklab-pause")
	defer c.Close()
	ms := strconv.FormatInt(PauseTimeout.Milliseconds(), 10)
	return expect(ctx, c, []string{"CLIENT", "PAUSE", ms, "WRITE"}, okStatus)
}

// PauseHeal ends PauseCut: CLIENT UNPAUSE. To lose the write, call it
// only after the primary is gone and WaitLinkDown returned; before that,
// the replica applies the write it was holding.
func PauseHeal(ctx context.Context, replicaAddr string) error {
	c := dial(replicaAddr, "locklab-pause")
	defer c.Close()
	return expect(ctx, c, []string{"CLIENT", "UNPAUSE"}, okStatus)
}

// ShutdownNow stops the server at addr with SHUTDOWN NOSAVE NOW: it exits
// without saving and without waiting for lagging replicas (plain SHUTDOWN
// or SIGTERM would wait up to 10 s for them, and so deliver the write). A
// nil error means the server answered and then closed the connection: it
// is exiting.
func ShutdownNow(ctx context.Context, addr string) error {
	c := dial(addr, "locklab-crash")
	defer c.Close()
	if err := c.Ping(ctx); err != nil {
		return fmt.Errorf("%s: %w", addr, err)
	}
	r, err := c.Do(ctx, []string{"SHUTDOWN", "NOSAVE", "NOW"})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	if r.IsError() {
		return errors.New(r.Str)
	}
	return fmt.Errorf("SHUTDOWN NOSAVE NOW answered %v", r)
}

func dial(addr, name string) *session.Conn {
	return session.NewConn(session.Target{Network: "tcp", Addr: addr}, name)
}

// info runs INFO section on c and returns its fields.
func info(ctx context.Context, c *session.Conn, section string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	r, err := c.Do(ctx, []string{"INFO", section})
	if err != nil {
		return nil, err
	}
	if r.IsError() {
		return nil, errors.New(r.Str)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(r.Str, "\n") {
		line = strings.TrimRight(line, "\r")
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			fields[k] = v
		}
	}
	return fields, nil
}

func okStatus(r resp.Reply) bool { return r.Kind == resp.Status && r.Str == "OK" }

// expect runs args on c and checks the reply with want.
func expect(ctx context.Context, c *session.Conn, args []string, want func(resp.Reply) bool) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r, err := c.Do(ctx, args)
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	if !want(r) {
		return fmt.Errorf("%s: unexpected reply %v", strings.Join(args, " "), r)
	}
	return nil
}

// poll calls done every 20 ms until it says yes, fails, or limit passes.
func poll(ctx context.Context, limit time.Duration, done func() (bool, error), what string) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var lastErr error
	for {
		ok, err := done()
		if ok {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return fmt.Errorf("waiting for %s: %w (last error: %v)", what, ctx.Err(), lastErr)
			}
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// gone waits up to limit for process pid to exit (and be reaped, which
// the server package's Wait does at once).
func gone(pid int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		if !Alive(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Alive reports whether process pid exists and is not a zombie.
func Alive(pid int) bool { return server.Alive(pid) }

func randomToken() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}
