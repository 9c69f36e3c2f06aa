package commands

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Command describes one Redis command or container subcommand, as COMMAND
// DOCS and COMMAND INFO describe it.
type Command struct {
	// Name is upper case; a subcommand's is "CONTAINER SUB", e.g.
	// "CLIENT SETNAME".
	Name string
	// Arity counts every word, the name(s) included. Negative means at
	// least -Arity words (Redis's convention).
	Arity   int
	Summary string
	Since   string
	Group   string
	Flags   Flag
	// FirstKey, LastKey and KeyStep are COMMAND INFO's legacy key
	// positions (0 when the command takes no key; LastKey -1 means the
	// last argument).
	FirstKey, LastKey, KeyStep int
	// Streams is set for a command after which the server keeps sending
	// on the connection rather than answering once: SUBSCRIBE,
	// PSUBSCRIBE, SSUBSCRIBE, MONITOR.
	Streams bool
	// Blocks is set for a command that may hold its reply until its
	// timeout (for ever with 0): those COMMAND INFO flags blocking, and
	// WAIT and WAITAOF. (XREAD and XREADGROUP block only with BLOCK.)
	Blocks bool
	// DeprecatedSince and ReplacedBy are set for deprecated commands.
	DeprecatedSince string
	ReplacedBy      string
	// Args is the argument spec, in order.
	Args []Arg
}

// Arg is one node of a command's argument spec.
type Arg struct {
	Name  string
	Type  ArgType
	Token string // the literal word that introduces the argument, if any (see HasToken)
	Flags ArgFlag
	Args  []Arg // for TypeOneOf and TypeBlock
}

// Is reports whether the argument has flag f.
func (a *Arg) Is(f ArgFlag) bool { return a.Flags&f != 0 }

// HasToken reports whether the argument is introduced by Token, which may
// be the empty string (EmptyToken).
func (a *Arg) HasToken() bool { return a.Token != "" || a.Flags&EmptyToken != 0 }

// ArgType is the type of an argument, as COMMAND DOCS names it.
type ArgType uint8

// The argument types.
const (
	TypeString    ArgType = iota // "string"
	TypeInteger                  // "integer"
	TypeDouble                   // "double"
	TypeKey                      // "key"
	TypePattern                  // "pattern"
	TypeUnixTime                 // "unix-time"
	TypePureToken                // "pure-token": only the token
	TypeOneOf                    // "oneof": exactly one of Args
	TypeBlock                    // "block": all of Args in order
)

var argTypeNames = [...]string{"string", "integer", "double", "key", "pattern",
	"unix-time", "pure-token", "oneof", "block"}

func (t ArgType) String() string {
	if int(t) < len(argTypeNames) {
		return argTypeNames[t]
	}
	return fmt.Sprintf("ArgType(%d)", int(t))
}

// ArgFlag is a set of argument flags.
type ArgFlag uint8

// The argument flags.
const (
	Optional      ArgFlag = 1 << iota // may be left out
	Multiple                          // may repeat
	MultipleToken                     // the token repeats with each repetition
	EmptyToken                        // Token is present but empty: MIGRATE's "" for no key
)

// Flag is a set of command flags: COMMAND INFO's flags plus COMMAND DOCS's
// doc_flags (FlagDeprecated, FlagSyscmd).
type Flag uint32

// The command flags.
const (
	FlagWrite Flag = 1 << iota
	FlagReadonly
	FlagDenyOOM
	FlagModule
	FlagAdmin
	FlagPubSub
	FlagNoScript
	FlagBlocking
	FlagLoading
	FlagStale
	FlagSkipMonitor
	FlagSkipSlowlog
	FlagAsking
	FlagFast
	FlagNoAuth
	FlagMayReplicate
	FlagSentinel
	FlagOnlySentinel
	FlagNoMandatoryKeys
	FlagNoPropagate
	FlagNoAsyncLoading
	FlagNoMulti
	FlagMovableKeys
	FlagAllowBusy
	FlagDeprecated
	FlagSyscmd
)

// Is reports whether the command has every flag in f.
func (c *Command) Is(f Flag) bool { return c.Flags&f == f }

// IsContainer reports whether the command has subcommands (CLIENT, CONFIG…).
func (c *Command) IsContainer() bool { return len(subRange(c.Name)) > 0 }

// The table is sorted by name (the generator writes it so, TestTable
// checks it), so it is searched as it is: nothing is built at start-up, and
// a command as arguments costs a binary search, not an index of the whole
// table. A container's subcommands ("CLIENT CACHING" …) follow it at once,
// since a space sorts before every character a name has.

// search is the index of the first command whose name is not below name.
func search(name string) int {
	lo, hi := 0, len(table)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if table[m].Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// find returns the command called name exactly ("SET", "CLIENT SETNAME"),
// or nil.
func find(name string) *Command {
	if i := search(name); i < len(table) && table[i].Name == name {
		return &table[i]
	}
	return nil
}

// hasSubs reports whether the command at index i is a container: whether
// the next one is its first subcommand.
func hasSubs(i int) bool {
	if i+1 >= len(table) {
		return false
	}
	name, next := table[i].Name, table[i+1].Name
	return len(next) > len(name) && next[len(name)] == ' ' && next[:len(name)] == name
}

// subRange is the run of the table holding container's subcommands
// (empty if it has none).
func subRange(container string) []Command {
	prefix := container + " "
	i := search(prefix)
	j := i
	for j < len(table) && strings.HasPrefix(table[j].Name, prefix) {
		j++
	}
	return table[i:j]
}

// topNames is the top-level names, sorted, made on first use (completion
// and suggestions).
var topNames = sync.OnceValue(func() []string {
	var top []string
	for i := range table {
		if !strings.Contains(table[i].Name, " ") {
			top = append(top, table[i].Name)
		}
	}
	return top
})

// Lookup finds the command that words start with, case-insensitively, and
// says how many words its name used: 2 for a container's subcommand
// ("client", "setname" gives CLIENT SETNAME), else 1. A container followed
// by an unknown or no subcommand gives the container itself. Lookup returns
// nil, 0 for an unknown command.
func Lookup(words []string) (*Command, int) {
	if len(words) == 0 {
		return nil, 0
	}
	name := strings.ToUpper(words[0])
	i := search(name)
	if i == len(table) || table[i].Name != name || strings.Contains(name, " ") {
		return nil, 0
	}
	if len(words) > 1 && hasSubs(i) {
		if s := find(name + " " + strings.ToUpper(words[1])); s != nil {
			return s, 2
		}
	}
	return &table[i], 1
}

// Streams reports whether args, a command's words in any case, are a
// command after which the server keeps sending on the connection
// (Command.Streams), on this table's server or a newer one.
func Streams(args []string) bool {
	c := streamsOrBlocks(args)
	return c != nil && c.Streams
}

// Blocks reports whether args, a command's words in any case, are a
// command that may hold its reply (Command.Blocks), on this table's
// server or a newer one.
func Blocks(args []string) bool {
	c := streamsOrBlocks(args)
	return c != nil && c.Blocks
}

// streamsOrBlocks is the entry that says whether args stream or block:
// the table's, else unlisted's (a newer server's command).
func streamsOrBlocks(args []string) *Command {
	if c, _ := Lookup(args); c != nil {
		return c
	}
	for i := range unlisted {
		if len(args) > 0 && strings.EqualFold(args[0], unlisted[i].Name) {
			return &unlisted[i]
		}
	}
	return nil
}

// Get returns the command with the given name ("set", "client setname"),
// or nil.
func Get(name string) *Command {
	return find(strings.ToUpper(strings.Join(strings.Fields(name), " ")))
}

// Names returns all top-level command names, upper case and sorted.
func Names() []string { return slices.Clone(topNames()) }

// SubNames returns the subcommand words of a container command (for
// "client": "CACHING", "GETNAME", …), upper case and sorted; nil if the
// command has none.
func SubNames(container string) []string {
	container = strings.ToUpper(container)
	var out []string
	for _, c := range subRange(container) {
		out = append(out, c.Name[len(container)+1:])
	}
	return out
}

// All returns every command and subcommand, sorted by name. The pointers
// are to the shared table: do not modify them.
func All() []*Command {
	out := make([]*Command, len(table))
	for i := range table {
		out[i] = &table[i]
	}
	return out
}

// Syntax is the command's syntax line as redis-cli's `help CMD` prints it,
// e.g. "GET key" or "CLIENT SETNAME connection-name".
func (c *Command) Syntax() string {
	p := c.Params()
	if p == "" {
		return c.Name
	}
	return c.Name + " " + p
}

// Params is the argument part of Syntax: "key value [NX|XX] …" for SET.
func (c *Command) Params() string {
	return makeHint(c.Args, nil)
}

// ArityError is the error Redis returns for a wrong number of arguments.
type ArityError struct {
	Command string // as Redis names it: "set", "client|setname"
}

func (e *ArityError) Error() string {
	msg := "wrong number of arguments for '" + e.Command + "' command"
	if e.Command == "exec" {
		// Redis rejects EXEC through execCommandAbort, which discards the
		// transaction and words the error so.
		return "EXECABORT Transaction discarded because of: " + msg
	}
	return "ERR " + msg
}

// CheckArity returns nil if words (the command name(s) included) have a
// number of words the command accepts, or if the command is unknown, and
// otherwise the error Redis itself would answer, e.g.
// "ERR wrong number of arguments for 'set' command" or, for a subcommand,
// "ERR wrong number of arguments for 'client|setname' command" (for EXEC:
// "EXECABORT Transaction discarded because of: wrong number of arguments
// for 'exec' command").
func CheckArity(words []string) error {
	c, _ := Lookup(words)
	if c == nil {
		return nil
	}
	n := len(words)
	if (c.Arity > 0 && n != c.Arity) || n < -c.Arity {
		return &ArityError{Command: strings.ToLower(strings.ReplaceAll(c.Name, " ", "|"))}
	}
	return nil
}

// Near are the Redis commands that start like word, when they
// are few enough to be a useful suggestion.
func Near(word string) []string {
	var near []string
	for _, n := range Names() {
		if len(word) >= 2 && strings.HasPrefix(n, strings.ToUpper(word[:2])) {
			near = append(near, n)
		}
	}
	sort.Strings(near)
	if len(near) > 8 {
		return nil
	}
	return near
}
