// Command gen writes table_gen.go, the static Redis command table of package
// commands, from a real redis-server's COMMAND DOCS and COMMAND INFO.
//
// Run it with `go generate ./repl/commands/`. By default it starts its own
// redis-server (from PATH) on a free loopback port with no persistence, and
// stops it afterwards; -addr uses a running server instead.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	addr := flag.String("addr", "", "host:port of a running redis-server (default: start one)")
	out := flag.String("o", "table_gen.go", "output file")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gen: ")

	if *addr == "" {
		a, stop, err := startServer()
		if err != nil {
			log.Fatal(err)
		}
		defer stop()
		*addr = a
	}
	src, err := generate(*addr)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// startServer runs redis-server on a free port in a temporary directory.
func startServer() (addr string, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, errors.New("redis-server is not on PATH (or pass -addr)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir, err := os.MkdirTemp("", "redis-gen-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no",
		"--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	}
	addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("redis-server did not start on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- a minimal RESP2 client ----

type reply struct {
	kind  byte // '+', '-', ':', '$', '*'
	str   string
	num   int64
	elems []*reply
	null  bool
}

type conn struct {
	c net.Conn
	r *bufio.Reader
}

func (c *conn) do(args ...string) (*reply, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.c.Write(b.Bytes()); err != nil {
		return nil, err
	}
	r, err := readReply(c.r)
	if err == nil && r.kind == '-' {
		err = errors.New(r.str)
	}
	return r, err
}

func readReply(r *bufio.Reader) (*reply, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, errors.New("empty RESP line")
	}
	rep := &reply{kind: line[0]}
	body := line[1:]
	switch rep.kind {
	case '+', '-':
		rep.str = body
	case ':':
		rep.num, err = strconv.ParseInt(body, 10, 64)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			rep.null = true
			return rep, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		rep.str = string(buf[:n])
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			rep.null = true
			return rep, nil
		}
		for i := 0; i < n; i++ {
			e, err := readReply(r)
			if err != nil {
				return nil, err
			}
			rep.elems = append(rep.elems, e)
		}
	default:
		return nil, fmt.Errorf("unexpected RESP type %q", rep.kind)
	}
	return rep, err
}

// pairs walks a RESP2 flattened map.
func pairs(r *reply) [][2]*reply {
	var out [][2]*reply
	for i := 0; i+1 < len(r.elems); i += 2 {
		out = append(out, [2]*reply{r.elems[i], r.elems[i+1]})
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

func generate(addr string) ([]byte, error) {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	c := &conn{c: nc, r: bufio.NewReader(nc)}

	info, err := c.do("INFO", "server")
	if err != nil {
		return nil, err
	}
	version := "unknown"
	for _, l := range strings.Split(info.str, "\r\n") {
		if v, ok := strings.CutPrefix(l, "redis_version:"); ok {
			version = v
		}
	}

	cmds := map[string]*command{}
	all, err := c.do("COMMAND")
	if err != nil {
		return nil, err
	}
	var addInfo func(e *reply) error
	addInfo = func(e *reply) error {
		if len(e.elems) < 6 {
			return fmt.Errorf("short COMMAND entry")
		}
		cm := &command{
			name:     displayName(e.elems[0].str),
			arity:    e.elems[1].num,
			firstKey: e.elems[3].num,
			lastKey:  e.elems[4].num,
			step:     e.elems[5].num,
		}
		for _, f := range e.elems[2].elems {
			cm.flags = append(cm.flags, f.str)
		}
		cmds[cm.name] = cm
		if len(e.elems) > 9 {
			for _, s := range e.elems[9].elems {
				if err := addInfo(s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, e := range all.elems {
		if err := addInfo(e); err != nil {
			return nil, err
		}
	}

	docs, err := c.do("COMMAND", "DOCS")
	if err != nil {
		return nil, err
	}
	var addDocs func(name string, spec *reply) error
	addDocs = func(name string, spec *reply) error {
		cm := cmds[displayName(name)]
		if cm == nil {
			return fmt.Errorf("COMMAND DOCS has %q, COMMAND has not", name)
		}
		for _, p := range pairs(spec) {
			k, v := p[0].str, p[1]
			switch k {
			case "summary":
				cm.summary = v.str
			case "since":
				cm.since = v.str
			case "group":
				cm.group = v.str
			case "replaced_by":
				cm.replacedBy = v.str
			case "deprecated_since":
				cm.deprecatedSince = v.str
			case "doc_flags":
				for _, f := range v.elems {
					cm.flags = append(cm.flags, f.str)
				}
			case "arguments":
				as, err := makeArgs(v)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				cm.args = as
			case "subcommands":
				for _, sp := range pairs(v) {
					if err := addDocs(sp[0].str, sp[1]); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, p := range pairs(docs) {
		if err := addDocs(p[0].str, p[1]); err != nil {
			return nil, err
		}
	}
	return render(version, cmds)
}

// displayName turns "client|setname" into "CLIENT SETNAME".
func displayName(s string) string {
	return strings.ToUpper(strings.ReplaceAll(s, "|", " "))
}

func makeArgs(r *reply) ([]*arg, error) {
	var out []*arg
	for _, e := range r.elems {
		a := &arg{}
		for _, p := range pairs(e) {
			k, v := p[0].str, p[1]
			switch k {
			case "name":
				a.name = v.str
			case "type":
				a.typ = v.str
			case "token":
				a.token = v.str
				if v.str == "" {
					a.flags = append(a.flags, "empty_token")
				}
			case "flags":
				for _, f := range v.elems {
					a.flags = append(a.flags, f.str)
				}
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
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt: %w", err)
	}
	return src, nil
}
