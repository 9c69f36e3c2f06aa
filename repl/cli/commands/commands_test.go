package commands

import (
	"slices"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string // "" for nil
		n     int
	}{
		{nil, "", 0},
		{[]string{"set", "k", "v"}, "SET", 1},
		{[]string{"SeT"}, "SET", 1},
		{[]string{"GETDEL", "k"}, "GETDEL", 1},
		{[]string{"client", "setname", "x"}, "CLIENT SETNAME", 2},
		{[]string{"CLIENT", "SetName"}, "CLIENT SETNAME", 2},
		{[]string{"config", "get", "maxmemory"}, "CONFIG GET", 2},
		{[]string{"script", "load", "return 1"}, "SCRIPT LOAD", 2},
		{[]string{"client"}, "CLIENT", 1},
		{[]string{"client", "bogus"}, "CLIENT", 1}, // unknown subcommand: the container
		{[]string{"get", "setname"}, "GET", 1},     // GET is no container
		{[]string{"nosuchcommand", "x"}, "", 0},    // unknown
		{[]string{"setname"}, "", 0},               // a subcommand alone is unknown
		{[]string{"client setname"}, "", 0},        // one word with a space is not two
		{[]string{""}, "", 0},
	} {
		c, n := Lookup(tc.words)
		got := ""
		if c != nil {
			got = c.Name
		}
		if got != tc.want || n != tc.n {
			t.Errorf("Lookup(%q) = %q, %d; want %q, %d", tc.words, got, n, tc.want, tc.n)
		}
	}
}

func TestGet(t *testing.T) {
	if c := Get("client  setname"); c == nil || c.Name != "CLIENT SETNAME" {
		t.Errorf("Get(client setname) = %v", c)
	}
	if c := Get("nope"); c != nil {
		t.Errorf("Get(nope) = %v", c)
	}
}

func TestNames(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Error("Names not sorted")
	}
	for _, want := range []string{"SET", "GET", "GETDEL", "DEL", "EXPIRE", "PEXPIRE", "PTTL", "TTL",
		"EVAL", "EVALSHA", "SCRIPT", "CLIENT", "CONFIG", "MULTI", "EXEC", "WATCH", "UNWATCH", "DISCARD",
		"INCR", "SETNX", "HSET", "LPUSH", "BLPOP", "PUBLISH", "SUBSCRIBE", "OBJECT", "FUNCTION", "FCALL"} {
		if _, ok := slices.BinarySearch(names, want); !ok {
			t.Errorf("Names lacks %s", want)
		}
	}
	for _, n := range names {
		if strings.Contains(n, " ") || n != strings.ToUpper(n) {
			t.Errorf("Names has %q", n)
		}
	}
	names[0] = "changed"
	if Names()[0] == "changed" {
		t.Error("Names shares its slice")
	}
}

func TestSubNames(t *testing.T) {
	s := SubNames("client")
	if !slices.IsSorted(s) || !slices.Contains(s, "SETNAME") || !slices.Contains(s, "GETNAME") || !slices.Contains(s, "KILL") {
		t.Errorf("SubNames(client) = %v", s)
	}
	for container, sub := range map[string]string{"CONFIG": "GET", "script": "LOAD", "Object": "ENCODING", "XINFO": "STREAM", "acl": "SETUSER"} {
		if !slices.Contains(SubNames(container), sub) {
			t.Errorf("SubNames(%s) lacks %s", container, sub)
		}
	}
	if s := SubNames("get"); s != nil {
		t.Errorf("SubNames(get) = %v", s)
	}
	if c, _ := Lookup([]string{"client"}); !c.IsContainer() {
		t.Error("CLIENT is no container")
	}
	if c, _ := Lookup([]string{"set"}); c.IsContainer() {
		t.Error("SET is a container")
	}
}

func TestTable(t *testing.T) {
	all := All()
	if len(all) < 300 {
		t.Fatalf("only %d commands", len(all))
	}
	for i, c := range all {
		if i > 0 && all[i-1].Name >= c.Name { // Lookup, Get and SubNames search it as it is
			t.Errorf("table not sorted at %s", c.Name)
		}
		if c.Arity == 0 || c.Summary == "" || c.Since == "" || c.Group == "" {
			t.Errorf("%s: incomplete: %+v", c.Name, *c)
		}
	}
	set := Get("set")
	if set.Arity != -3 || set.Since != "1.0.0" || set.Group != "string" || set.Summary != "Set the string value of a key" ||
		!set.Is(FlagWrite|FlagDenyOOM) || set.Is(FlagReadonly) || set.FirstKey != 1 || set.LastKey != 1 || set.KeyStep != 1 {
		t.Errorf("SET = %+v", *set)
	}
	if len(set.Args) != 5 || set.Args[0].Type != TypeKey || set.Args[2].Type != TypeOneOf || !set.Args[2].Is(Optional) ||
		set.Args[4].Args[0].Token != "EX" || set.Args[4].Args[0].Type != TypeInteger || set.Args[4].Args[2].Type != TypeUnixTime {
		t.Errorf("SET args = %+v", set.Args)
	}
	if c := Get("client setname"); c.Arity != 3 || c.Group != "connection" {
		t.Errorf("CLIENT SETNAME = %+v", *c)
	}
	if c := Get("georadius"); !c.Is(FlagDeprecated) || c.DeprecatedSince == "" || c.ReplacedBy == "" {
		t.Errorf("GEORADIUS = %+v", *c)
	}
	if TypeUnixTime.String() != "unix-time" || TypePureToken.String() != "pure-token" || ArgType(99).String() != "ArgType(99)" {
		t.Error("ArgType.String")
	}
}

func TestSyntax(t *testing.T) {
	for name, want := range map[string]string{
		"set":            "SET key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]",
		"get":            "GET key",
		"getdel":         "GETDEL key",
		"del":            "DEL key [key ...]",
		"multi":          "MULTI",
		"ping":           "PING [message]",
		"client setname": "CLIENT SETNAME connection-name",
		"config get":     "CONFIG GET parameter [parameter ...]",
		"script load":    "SCRIPT LOAD script",
		"eval":           "EVAL script numkeys [key [key ...]] [arg [arg ...]]",
		"expire":         "EXPIRE key seconds [NX|XX|GT|LT]",
		"migrate":        `MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [[AUTH password]|[AUTH2 username password]] [KEYS key [key ...]]`,
		"zadd":           "ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]",
	} {
		if got := Get(name).Syntax(); got != want {
			t.Errorf("Syntax(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestCheckArity(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // "" for nil
	}{
		{"", ""},
		{"set k v", ""},
		{"set k v nx px 100", ""},
		{"set k", "ERR wrong number of arguments for 'set' command"},
		{"SET", "ERR wrong number of arguments for 'set' command"},
		{"get k x", "ERR wrong number of arguments for 'get' command"},
		{"getdel", "ERR wrong number of arguments for 'getdel' command"},
		{"multi x", "ERR wrong number of arguments for 'multi' command"},
		{"exec x", "EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command"},
		{"client setname", "ERR wrong number of arguments for 'client|setname' command"},
		{"CLIENT SETNAME a b", "ERR wrong number of arguments for 'client|setname' command"},
		{"client", "ERR wrong number of arguments for 'client' command"},
		{"client bogus", ""}, // Redis: unknown subcommand, not arity
		{"config get", "ERR wrong number of arguments for 'config|get' command"},
		{"nosuchcommand", ""},
	} {
		err := CheckArity(strings.Fields(tc.line))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckArity(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
	err := CheckArity([]string{"client", "setname"})
	if e, ok := err.(*ArityError); !ok || e.Command != "client|setname" {
		t.Errorf("error %#v, want an *ArityError for client|setname", err)
	}
}
