package commands

import (
	"slices"
	"strconv"
	"strings"
)

// Keys are the keys args (a command's words, in any case) name, as the
// table's key specs place them, in order and without repeats:
//
//   - the legacy range FirstKey..LastKey by KeyStep (LastKey -1 is the
//     last word, -2 the one before, and so on);
//   - for a command with movable keys, the keys a "numkeys" argument
//     counts (EVAL, EVALSHA, FCALL, ZUNIONSTORE, LMPOP ...), and every
//     key a token introduces (SORT ... STORE dest, MIGRATE ... KEYS k...,
//     GEORADIUS ... STORE dest).
//
// An unknown command, or words too few for its spec, names no key. The
// database a key lives in is the connection's: SELECT, MOVE's and COPY's
// DB are the caller's to follow.
func Keys(args []string) []string {
	c, n := Lookup(args)
	if c == nil {
		return nil
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, i := range c.keyRange(len(args)) {
		if args[i] != "" || !c.emptyMeansNone() {
			add(args[i])
		}
	}
	if c.Is(FlagMovableKeys) {
		for _, k := range c.countedKeys(args, n) {
			add(k)
		}
		for _, k := range c.tokenKeys(args) {
			add(k)
		}
	}
	return keys
}

// Writes reports whether args may change a key: a command flagged write,
// or a script or function that may write (EVAL, EVALSHA, FCALL; not their
// _RO forms), which is judged by what it did.
func Writes(args []string) bool {
	c, _ := Lookup(args)
	if c == nil {
		return false
	}
	if c.Is(FlagWrite) {
		return true
	}
	return c.Group == "scripting" && c.Is(FlagMovableKeys) && !c.Is(FlagReadonly)
}

// emptyMeansNone reports whether an empty word in the key range stands
// for no key (MIGRATE's "" when KEYS lists them).
func (c *Command) emptyMeansNone() bool {
	return slices.ContainsFunc(flatten(c.Args), func(a Arg) bool { return a.Is(EmptyToken) })
}

// keyRange is the positions of the legacy key range in n words.
func (c *Command) keyRange(n int) []int {
	if c.FirstKey <= 0 || c.KeyStep <= 0 {
		return nil
	}
	last := c.LastKey
	if last < 0 {
		last = n + last
	}
	var out []int
	for i := c.FirstKey; i <= last && i < n; i += c.KeyStep {
		out = append(out, i)
	}
	return out
}

// countedKeys are the keys counted by a "numkeys" argument: it follows
// only plain single arguments in the spec, so its place is fixed (after
// the name's n words).
func (c *Command) countedKeys(args []string, n int) []string {
	for i, a := range c.Args {
		if a.Name != "numkeys" {
			if a.HasToken() || a.Is(Optional) || a.Is(Multiple) || a.Type == TypeOneOf || a.Type == TypeBlock {
				return nil
			}
			continue
		}
		at := n + i
		if at >= len(args) {
			return nil
		}
		count, err := strconv.Atoi(args[at])
		if err != nil || count < 0 || at+1+count > len(args) {
			return nil
		}
		return args[at+1 : at+1+count]
	}
	return nil
}

// tokenKeys are the keys a token introduces (SORT's STORE, MIGRATE's
// KEYS): the word after the token, or every word after it for a key that
// repeats.
func (c *Command) tokenKeys(args []string) []string {
	var out []string
	for _, a := range flatten(c.Args) {
		if a.Type != TypeKey || a.Token == "" {
			continue
		}
		for i := 1; i+1 < len(args); i++ {
			if !strings.EqualFold(args[i], a.Token) {
				continue
			}
			if a.Is(Multiple) {
				return append(out, args[i+1:]...)
			}
			out = append(out, args[i+1])
		}
	}
	return out
}

// flatten is every argument of the spec, the members of blocks and
// one-ofs included.
func flatten(args []Arg) []Arg {
	var out []Arg
	for _, a := range args {
		out = append(append(out, a), flatten(a.Args)...)
	}
	return out
}

// DatabaseWide reports whether args are a write that names no key yet
// changes keys: the whole database's (FLUSHDB, FLUSHALL, SWAPDB: the
// table's keyless writes of the server group).
func DatabaseWide(args []string) bool {
	c, _ := Lookup(args)
	return c != nil && c.Group == "server" && Writes(args) && c.FirstKey == 0 && !c.Is(FlagMovableKeys)
}
