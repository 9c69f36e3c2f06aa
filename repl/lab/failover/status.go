package failover

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/locklab/locklab/repl/cli/session"
)

// Replication is what the two servers say about their replication, and
// what the proxy dropped. Roles are as INFO reports them ("master",
// "slave"), or "down" for a server that does not answer.
type Replication struct {
	PrimaryRole, ReplicaRole string

	// PrimaryOffset is the primary's master_repl_offset: every byte of
	// the replication stream it produced. Once it is down, the last one
	// read.
	PrimaryOffset int64
	// ReplicaOffset is the stream the replica has applied: its
	// slave_repl_offset while a replica, its master_repl_offset once
	// promoted (which continues from there).
	ReplicaOffset int64
	// LinkStatus is the replica's master_link_status ("up", "down"), or
	// "" when it is not a replica.
	LinkStatus string

	DroppedDown, DroppedUp int64 // bytes the proxy discarded, per direction
	PrimaryUp              bool  // the primary answered
	Proxied                bool  // the link goes through locklab's proxy
}

// Behind is how many bytes of the primary's stream the replica has not
// applied.
func (r Replication) Behind() int64 { return r.PrimaryOffset - r.ReplicaOffset }

// Observe reads INFO replication from a primary and a replica given by
// address, for servers locklab does not own (docker compose); nothing is
// proxied, so nothing is counted as dropped.
func Observe(ctx context.Context, primaryAddr, replicaAddr string) Replication {
	p, r := dial(primaryAddr, "locklab-topology"), dial(replicaAddr, "locklab-topology")
	defer p.Close()
	defer r.Close()
	var rep Replication
	rep.primary(ctx, p)
	rep.replica(ctx, r)
	return rep
}

func (r *Replication) primary(ctx context.Context, c *session.Conn) map[string]string {
	in, err := info(ctx, c, "replication")
	if err != nil {
		r.PrimaryRole = "down"
		return nil
	}
	r.PrimaryUp = true
	r.PrimaryRole = in["role"]
	r.PrimaryOffset = applied(in)
	return in
}

func (r *Replication) replica(ctx context.Context, c *session.Conn) {
	in, err := info(ctx, c, "replication")
	if err != nil {
		r.ReplicaRole = "down"
		return
	}
	r.ReplicaRole = in["role"]
	r.ReplicaOffset = applied(in)
	if r.ReplicaRole == "slave" {
		r.LinkStatus = in["master_link_status"]
	}
}

// applied is the offset of the stream a server has applied.
func applied(in map[string]string) int64 {
	key := "master_repl_offset"
	if in["role"] == "slave" {
		key = "slave_repl_offset"
	}
	n, _ := strconv.ParseInt(in[key], 10, 64)
	return n
}

// String is a small table, e.g.
//
//	         role    offset  link
//	primary  master  123
//	replica  slave   55      up
//	the replica has not applied 68 bytes of the primary's stream
//	proxy dropped 68 bytes primary->replica, 0 bytes replica->primary
func (r Replication) String() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\trole\toffset\tlink")
	primaryOffset := strconv.FormatInt(r.PrimaryOffset, 10)
	if !r.PrimaryUp {
		primaryOffset += " (last seen)"
		if r.PrimaryOffset == 0 {
			primaryOffset = "-"
		}
	}
	fmt.Fprintf(w, "primary\t%s\t%s\t\n", r.PrimaryRole, primaryOffset)
	fmt.Fprintf(w, "replica\t%s\t%d\t%s\n", r.ReplicaRole, r.ReplicaOffset, r.LinkStatus)
	w.Flush()
	switch behind := r.Behind(); {
	case r.PrimaryOffset == 0:
	case behind > 0:
		fmt.Fprintf(&b, "the replica has not applied %d bytes of the primary's stream\n", behind)
	case behind == 0:
		b.WriteString("the replica has applied all of the primary's stream\n")
	default:
		fmt.Fprintf(&b, "the replica's stream is %d bytes past the primary's\n", -behind)
	}
	if r.Proxied {
		fmt.Fprintf(&b, "proxy dropped %d bytes primary->replica, %d bytes replica->primary\n", r.DroppedDown, r.DroppedUp)
	}
	return strings.TrimRight(b.String(), "\n")
}
