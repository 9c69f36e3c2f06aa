// Command gen writes table_gen.go, the static Redis command table of package
// commands, from a real redis-server's COMMAND DOCS and COMMAND INFO.
//
// Run it with `go generate ./repl/cli/commands/`. By default it starts its own
// redis-server (from PATH, with server.StartProcess) on a free loopback
// port with no persistence, and stops it however the run ends; -addr uses
// a running server instead.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"log"
	"net"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/server"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	if err := run(); err != nil {
		log.Fatal(err) // after run stopped the server it started
	}
}

// run parses the flags and writes the table, from a redis-server it
// starts and stops unless -addr names one.
func run() error {
	addr := flag.String("addr", "", "host:port of a running redis-server (default: start one)")
	out := flag.String("o", "table_gen.go", "output file")
	flag.Parse()
	if *addr == "" {
		a, stop, err := startServer()
		if err != nil {
			return err
		}
		defer stop()
		*addr = a
	}
	src, err := generate(*addr)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, src, 0o644)
}

// startServer runs redis-server on a free port, in a temporary directory
// that stop removes after stopping the server.
func startServer() (addr string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "redis-gen-")
	if err != nil {
		return "", nil, err
	}
	p, err := server.StartProcess(context.Background(), dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("%w (or pass -addr)", err)
	}
	return p.Addr(), func() { p.Close(); os.RemoveAll(dir) }, nil
}

// conn is a plain RESP2 connection: no HELLO, so maps come as flat arrays.
type conn struct {
	c net.Conn
	r *resp.Reader
}

// do sends a command and returns its reply; an error reply is an error.
func (c *conn) do(args ...string) (resp.Reply, error) {
	c.c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.c.Write(resp.Command(args...)); err != nil {
		return resp.Reply{}, err
	}
	r, _, err := c.r.Read()
	if err == nil && r.IsError() {
		err = fmt.Errorf("%s: %s", strings.Join(args, " "), r.Str)
	}
	return r, err
}

// pairs walks a RESP2 flattened map.
func pairs(r resp.Reply) [][2]resp.Reply {
	var out [][2]resp.Reply
	for i := 0; i+1 < len(r.Elems); i += 2 {
		out = append(out, [2]resp.Reply{r.Elems[i], r.Elems[i+1]})
	}
	return out
}

// ---- the model ----

type arg struct {
	name, typ, token string
	flags            []string
	args             []*arg
}

type command struct {
	name                    string // "SET", "CLIENT SETNAME"
	arity                   int64
	summary, since, group   string
	flags                   []string
	firstKey, lastKey, step int64
	replacedBy              string
	deprecatedSince         string
	args                    []*arg
}

// generate reads the commands from the server at addr and renders the
// table.
func generate(addr string) ([]byte, error) {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	c := &conn{c: nc, r: resp.NewReader(nc)}
	version, err := serverVersion(c)
	if err != nil {
		return nil, err
	}
	cmds := map[string]*command{}
	if err := readInfo(c, cmds); err != nil {
		return nil, err
	}
	if err := readDocs(c, cmds); err != nil {
		return nil, err
	}
	return render(version, cmds)
}

// serverVersion returns the redis_version in INFO server.
func serverVersion(c *conn) (string, error) {
	info, err := c.do("INFO", "server")
	if err != nil {
		return "", err
	}
	version := "unknown"
	for _, l := range strings.Split(info.Str, "\r\n") {
		if v, ok := strings.CutPrefix(l, "redis_version:"); ok {
			version = v
		}
	}
	return version, nil
}

// readInfo adds every command and subcommand of COMMAND to cmds, with its
// arity, flags and key positions.
func readInfo(c *conn, cmds map[string]*command) error {
	all, err := c.do("COMMAND")
	if err != nil {
		return err
	}
	var addInfo func(e resp.Reply) error
	addInfo = func(e resp.Reply) error {
		if len(e.Elems) < 6 {
			return errors.New("short COMMAND entry")
		}
		cm := &command{
			name:     displayName(e.Elems[0].Str),
			arity:    e.Elems[1].Int,
			firstKey: e.Elems[3].Int,
			lastKey:  e.Elems[4].Int,
			step:     e.Elems[5].Int,
		}
		cm.flags = strs(e.Elems[2])
		cmds[cm.name] = cm
		if len(e.Elems) > 9 {
			for _, s := range e.Elems[9].Elems {
				if err := addInfo(s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, e := range all.Elems {
		if err := addInfo(e); err != nil {
			return err
		}
	}
	return nil
}

// readDocs adds what COMMAND DOCS says of each command in cmds.
func readDocs(c *conn, cmds map[string]*command) error {
	docs, err := c.do("COMMAND", "DOCS")
	if err != nil {
		return err
	}
	for _, p := range pairs(docs) {
		if err := addDocs(cmds, p[0].Str, p[1]); err != nil {
			return err
		}
	}
	return nil
}

// addDocs adds the docs of the command called name, and those of its
// subcommands, to its entry in cmds.
func addDocs(cmds map[string]*command, name string, spec resp.Reply) error {
	cm := cmds[displayName(name)]
	if cm == nil {
		return fmt.Errorf("COMMAND DOCS has %q, COMMAND has not", name)
	}
	for _, p := range pairs(spec) {
		k, v := p[0].Str, p[1]
		switch k {
		case "summary":
			cm.summary = v.Str
		case "since":
			cm.since = v.Str
		case "group":
			cm.group = v.Str
		case "replaced_by":
			cm.replacedBy = v.Str
		case "deprecated_since":
			cm.deprecatedSince = v.Str
		case "doc_flags":
			cm.flags = append(cm.flags, strs(v)...)
		case "arguments":
			as, err := makeArgs(v)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			cm.args = as
		case "subcommands":
			for _, sp := range pairs(v) {
				if err := addDocs(cmds, sp[0].Str, sp[1]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// strs returns the strings of an array reply.
func strs(r resp.Reply) []string {
	var out []string
	for _, e := range r.Elems {
		out = append(out, e.Str)
	}
	return out
}

// displayName turns "client|setname" into "CLIENT SETNAME".
func displayName(s string) string {
	return strings.ToUpper(strings.ReplaceAll(s, "|", " "))
}

// makeArgs reads the argument specs of COMMAND DOCS.
func makeArgs(r resp.Reply) ([]*arg, error) {
	var out []*arg
	for _, e := range r.Elems {
		a := &arg{}
		for _, p := range pairs(e) {
			k, v := p[0].Str, p[1]
			switch k {
			case "name":
				a.name = v.Str
			case "type":
				a.typ = v.Str
			case "token":
				a.token = v.Str
				if v.Str == "" {
					a.flags = append(a.flags, "empty_token")
				}
			case "flags":
				a.flags = append(a.flags, strs(v)...)
			case "arguments":
				sub, err := makeArgs(v)
				if err != nil {
					return nil, err
				}
				a.args = sub
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// ---- output ----

var argTypes = map[string]string{
	"string":     "TypeString",
	"integer":    "TypeInteger",
	"double":     "TypeDouble",
	"key":        "TypeKey",
	"pattern":    "TypePattern",
	"unix-time":  "TypeUnixTime",
	"pure-token": "TypePureToken",
	"oneof":      "TypeOneOf",
	"block":      "TypeBlock",
}

var argFlags = map[string]string{
	"optional":       "Optional",
	"multiple":       "Multiple",
	"multiple_token": "MultipleToken",
	"empty_token":    "EmptyToken", // not a Redis flag: a "token" that is ""
}

// cmdFlags maps COMMAND INFO flags and COMMAND DOCS doc_flags to constants.
var cmdFlags = map[string]string{
	"write":             "FlagWrite",
	"readonly":          "FlagReadonly",
	"denyoom":           "FlagDenyOOM",
	"module":            "FlagModule",
	"admin":             "FlagAdmin",
	"pubsub":            "FlagPubSub",
	"noscript":          "FlagNoScript",
	"blocking":          "FlagBlocking",
	"loading":           "FlagLoading",
	"stale":             "FlagStale",
	"skip_monitor":      "FlagSkipMonitor",
	"skip_slowlog":      "FlagSkipSlowlog",
	"asking":            "FlagAsking",
	"fast":              "FlagFast",
	"no_auth":           "FlagNoAuth",
	"may_replicate":     "FlagMayReplicate",
	"sentinel":          "FlagSentinel",
	"only_sentinel":     "FlagOnlySentinel",
	"no_mandatory_keys": "FlagNoMandatoryKeys",
	"no_propagate":      "FlagNoPropagate",
	"no_async_loading":  "FlagNoAsyncLoading",
	"no_multi":          "FlagNoMulti",
	"movablekeys":       "FlagMovableKeys",
	"allow_busy":        "FlagAllowBusy",
	"deprecated":        "FlagDeprecated",
	"syscmd":            "FlagSyscmd",
}

func flagExpr(names []string, table map[string]string, what string) (string, error) {
	var parts []string
	for _, n := range names {
		c, ok := table[n]
		if !ok {
			return "", fmt.Errorf("unknown %s flag %q: add it to package commands and the generator", what, n)
		}
		parts = append(parts, c)
	}
	if len(parts) == 0 {
		return "0", nil
	}
	return strings.Join(parts, "|"), nil
}

func writeArgs(b *bytes.Buffer, as []*arg) error {
	if len(as) == 0 {
		b.WriteString("nil")
		return nil
	}
	b.WriteString("[]Arg{")
	for i, a := range as {
		if i > 0 {
			b.WriteString(", ")
		}
		t, ok := argTypes[a.typ]
		if !ok {
			return fmt.Errorf("unknown argument type %q", a.typ)
		}
		f, err := flagExpr(a.flags, argFlags, "argument")
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "{%q, %s, %q, %s, ", a.name, t, a.token, f)
		if err := writeArgs(b, a.args); err != nil {
			return err
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return nil
}

// streams are the commands after which the server keeps sending on the
// connection instead of answering once: a subscription's messages,
// MONITOR's feed. No flag of COMMAND INFO says so (pubsub covers PUBLISH
// and UNSUBSCRIBE too), so the list is here, and the table carries it.
var streams = []string{"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "MONITOR"}

// blocksUnflagged are the commands that may hold their reply (until
// their timeout, for ever with 0) with no blocking flag: WAIT and WAITAOF
// wait for replicas or for the AOF. The flagged ones are read from the
// server.
var blocksUnflagged = []string{"WAIT", "WAITAOF"}

// streamsOrBlocks writes ", Streams: true" and ", Blocks: true" for a
// command that has them.
func streamsOrBlocks(b *bytes.Buffer, name string, flags []string) {
	if slices.Contains(streams, name) {
		b.WriteString(", Streams: true")
	}
	if slices.Contains(flags, "blocking") || slices.Contains(blocksUnflagged, name) {
		b.WriteString(", Blocks: true")
	}
}

// renderUnlisted writes the commands of streams and blocksUnflagged that
// the server lacks (a newer one's: WAITAOF is Redis 7.2), so that Streams
// and Blocks know them on any server.
func renderUnlisted(b *bytes.Buffer, version string, cmds map[string]*command) {
	fmt.Fprintf(b, "\n// unlisted are the commands that stream or block which redis-server %s\n// does not have: Streams and Blocks know them by name.\nvar unlisted = [...]Command{\n", version)
	for _, n := range slices.Concat(streams, blocksUnflagged) {
		if cmds[n] == nil {
			fmt.Fprintf(b, "\t{Name: %q", n)
			streamsOrBlocks(b, n, nil)
			b.WriteString("},\n")
		}
	}
	b.WriteString("}\n")
}

func render(version string, cmds map[string]*command) ([]byte, error) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/gen from redis-server %s COMMAND DOCS and COMMAND INFO; DO NOT EDIT.\n\n", version)
	b.WriteString("package commands\n\n")
	fmt.Fprintf(&b, "// ServerVersion is the redis-server version the table was read from.\nconst ServerVersion = %q\n\n", version)
	b.WriteString("var table = [...]Command{\n")
	for _, n := range names {
		cm := cmds[n]
		f, err := flagExpr(cm.flags, cmdFlags, "command")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		fmt.Fprintf(&b, "\t{Name: %q, Arity: %d, Summary: %q, Since: %q, Group: %q",
			cm.name, cm.arity, cm.summary, cm.since, cm.group)
		if f != "0" {
			fmt.Fprintf(&b, ", Flags: %s", f)
		}
		if cm.firstKey != 0 || cm.lastKey != 0 || cm.step != 0 {
			fmt.Fprintf(&b, ", FirstKey: %d, LastKey: %d, KeyStep: %d", cm.firstKey, cm.lastKey, cm.step)
		}
		streamsOrBlocks(&b, n, cm.flags)
		if cm.deprecatedSince != "" {
			fmt.Fprintf(&b, ", DeprecatedSince: %q", cm.deprecatedSince)
		}
		if cm.replacedBy != "" {
			fmt.Fprintf(&b, ", ReplacedBy: %q", cm.replacedBy)
		}
		if len(cm.args) > 0 {
			b.WriteString(", Args: ")
			if err := writeArgs(&b, cm.args); err != nil {
				return nil, fmt.Errorf("%s: %w", n, err)
			}
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	renderUnlisted(&b, version, cmds)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt: %w", err)
	}
	return src, nil
}
