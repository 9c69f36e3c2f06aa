package commands

import (
	"strings"
	"testing"
)

// splitInput splits a hint-suite input line into words the way the REPL
// would (the suite's inputs use no quoting), and says whether it ends in a
// space.
func splitInput(in string) ([]string, bool) {
	return strings.Fields(in), strings.HasSuffix(in, " ")
}

// hintSuite is redis/redis tests/assets/test_cli_hint_suite.txt (redis-cli
// 7.2+), case by case. Where Redis 7.0.15's argument specs (the ones in
// table_gen.go) differ from the newer ones the suite was written for, the
// case keeps the suite's input and has the 7.0 answer, with the suite's
// answer in suite and the reason in note.
var hintSuite = []struct {
	input, want string
	suite, note string // set only for adapted cases
}{
	// Command with one arg: GET key
	{input: "GET ", want: "key"},
	{input: "GET abc ", want: ""},

	// Command with two args: DECRBY key decrement
	{input: "DECRBY xyz 2 ", want: ""},
	{input: "DECRBY xyz ", want: "decrement"},
	{input: "DECRBY ", want: "key decrement"},

	// Command with optional arg: LPOP key [count]
	{input: "LPOP key ", want: "[count]"},
	{input: "LPOP key 3 ", want: ""},

	// Command with optional token arg: XRANGE key start end [COUNT count]
	{input: "XRANGE ", want: "key start end [COUNT count]"},
	{input: "XRANGE k 4 2 ", want: "[COUNT count]"},
	{input: "XRANGE k 4 2 COU", want: "[COUNT count]"},
	{input: "XRANGE k 4 2 COUNT", want: "[COUNT count]"},
	{input: "XRANGE k 4 2 COUNT ", want: "count"},

	// Command with required token block arg:
	// BITFIELD_RO key GET encoding offset [encoding offset ...]
	// 7.0 makes the GET block optional, "BITFIELD_RO key [GET encoding
	// offset [GET encoding offset ...]]" (7.2 made it required), so until
	// GET is typed the whole block is in brackets.
	{input: "BITFIELD_RO k ", want: "[GET encoding offset [GET encoding offset ...]]",
		suite: "GET encoding offset [GET encoding offset ...]", note: "GET block optional in 7.0"},
	{input: "BITFIELD_RO k GE", want: "[GET encoding offset [GET encoding offset ...]]",
		suite: "GET encoding offset [GET encoding offset ...]", note: "GET block optional in 7.0"},
	{input: "BITFIELD_RO k GET", want: "[GET encoding offset [GET encoding offset ...]]",
		suite: "GET encoding offset [GET encoding offset ...]", note: "GET block optional in 7.0"},
	{input: "BITFIELD_RO k GET ", want: "encoding offset [GET encoding offset ...]"},
	{input: "BITFIELD_RO k GET xyz ", want: "offset [GET encoding offset ...]"},
	{input: "BITFIELD_RO k GET xyz 12 ", want: "[GET encoding offset ...]"},
	{input: "BITFIELD_RO k GET xyz 12 GET ", want: "encoding offset [GET encoding offset ...]"},
	{input: "BITFIELD_RO k GET enc1 12 GET enc2 ", want: "offset [GET encoding offset ...]"},
	{input: "BITFIELD_RO k GET enc1 12 GET enc2 34 ", want: "[GET encoding offset ...]"},

	// Two-word command with multiple non-token block args:
	// CONFIG SET parameter value [parameter value ...]
	{input: "CONFIG SET param ", want: "value [parameter value ...]"},
	{input: "CONFIG SET param val ", want: "[parameter value ...]"},
	{input: "CONFIG SET param val parm2 val2 ", want: "[parameter value ...]"},

	// Command with nested optional args: ZRANDMEMBER key [count [WITHSCORES]]
	{input: "ZRANDMEMBER k ", want: "[count [WITHSCORES]]"},
	{input: "ZRANDMEMBER k 3 ", want: "[WITHSCORES]"},
	{input: "ZRANDMEMBER k 3 WI", want: "[WITHSCORES]"},
	{input: "ZRANDMEMBER k 3 WITHSCORES ", want: ""},
	// Wrong data type: count must be an integer. Hinting fails.
	{input: "ZRANDMEMBER k cnt ", want: ""},

	// Command ends with repeated arg: MGET key [key ...]
	{input: "MGET ", want: "key [key ...]"},
	{input: "MGET k ", want: "[key ...]"},
	{input: "MGET k k ", want: "[key ...]"},

	// Optional args can be in any order:
	// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
	{input: "SCAN 2 MATCH ", want: "pattern [COUNT count] [TYPE type]"},
	{input: "SCAN 2 COUNT ", want: "count [MATCH pattern] [TYPE type]"},

	// One-of choices: BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout
	{input: "BLMOVE src dst LEFT ", want: "LEFT|RIGHT timeout"},

	// Optional args can be in any order:
	// ZRANGE key min max [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
	// 7.0 names the arguments "start stop", not "min max"; the suite's
	// cases do not show them.
	{input: "ZRANGE k 1 2 ", want: "[BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]"},
	{input: "ZRANGE k 1 2 bylex ", want: "[REV] [LIMIT offset count] [WITHSCORES]"},
	{input: "ZRANGE k 1 2 bylex rev ", want: "[LIMIT offset count] [WITHSCORES]"},
	{input: "ZRANGE k 1 2 limit 2 4 ", want: "[BYSCORE|BYLEX] [REV] [WITHSCORES]"},
	{input: "ZRANGE k 1 2 bylex rev limit 2 4 WITHSCORES ", want: ""},
	{input: "ZRANGE k 1 2 rev ", want: "[BYSCORE|BYLEX] [LIMIT offset count] [WITHSCORES]"},
	{input: "ZRANGE k 1 2 WITHSCORES ", want: "[BYSCORE|BYLEX] [REV] [LIMIT offset count]"},

	// Optional one-of args with parameters:
	// SET key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]
	{input: "SET key value ", want: "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
	{input: "SET key value EX", want: "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
	{input: "SET key value EX ", want: "seconds [NX|XX] [GET]"},
	{input: "SET key value EXAT", want: "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
	{input: "SET key value EXAT ", want: "unix-time-seconds [NX|XX] [GET]"},
	{input: "SET key value PX", want: "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
	{input: "SET key value PX ", want: "milliseconds [NX|XX] [GET]"},
	{input: "SET key value PXAT", want: "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
	{input: "SET key value PXAT ", want: "unix-time-milliseconds [NX|XX] [GET]"},
	{input: "SET key value KEEPTTL ", want: "[NX|XX] [GET]"},
	{input: "SET key value XX ", want: "[GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},

	// If an input word can't be matched, stop hinting.
	{input: "SET key value FOOBAR ", want: ""},

	// Reordering partially-matched optional argument:
	// GEORADIUS key longitude latitude radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC] [STORE key] [STOREDIST key]
	{input: "GEORADIUS key ", want: "longitude latitude radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC] [STORE key] [STOREDIST key]"},
	{input: "GEORADIUS key 1 2 3 M ", want: "[WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC] [STORE key] [STOREDIST key]"},
	{input: "GEORADIUS key 1 2 3 M COUNT ", want: "count [ANY] [WITHCOORD] [WITHDIST] [WITHHASH] [ASC|DESC] [STORE key] [STOREDIST key]"},
	{input: "GEORADIUS key 1 2 3 M COUNT 12 ", want: "[ANY] [WITHCOORD] [WITHDIST] [WITHHASH] [ASC|DESC] [STORE key] [STOREDIST key]"},
	// The suite's line for this case has a stray `""` after the expected
	// hint (sdssplitargs rejects the line); the intended case is kept.
	{input: "GEORADIUS key 1 -2.345 3 M COUNT 12 ", want: "[ANY] [WITHCOORD] [WITHDIST] [WITHHASH] [ASC|DESC] [STORE key] [STOREDIST key]"},
	// Wrong data type: latitude must be a double. Hinting fails.
	{input: "GEORADIUS key 1 X ", want: ""},
	// Once the next optional argument is started, the [ANY] hint
	// completing the COUNT argument disappears.
	{input: "GEORADIUS key 1 2 3 M COUNT 12 ASC ", want: "[WITHCOORD] [WITHDIST] [WITHHASH] [STORE key] [STOREDIST key]"},

	// Optional parameters followed by mandatory params:
	// ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]
	{input: "ZADD key ", want: "[NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]"},
	{input: "ZADD key CH LT ", want: "[NX|XX] [INCR] score member [score member ...]"},
	{input: "ZADD key 0 ", want: "member [score member ...]"},

	// Empty-valued token argument represented as a pair of double-quotes.
	{input: "MIGRATE ", want: `host port key|"" destination-db timeout [COPY] [REPLACE] [[AUTH password]|[AUTH2 username password]] [KEYS key [key ...]]`},
}

func TestHintSuite(t *testing.T) {
	for _, tc := range hintSuite {
		words, space := splitInput(tc.input)
		if got := Hint(words, space); got != tc.want {
			t.Errorf("Hint(%q) = %q, want %q", tc.input, got, tc.want)
		}
	}
}

func TestHint(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"", ""},
		{" ", ""},
		{"SET", ""}, // the command word is not matched until a space follows
		{"SET ", "key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
		{"set k", "key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]"},
		{"set k v nx px ", "milliseconds [GET]"},
		{"set k v nx px 100 ", "[GET]"},
		{"set k v nx px 100 get ", ""},
		{"set k v px notanumber ", ""},
		{"NOSUCHCOMMAND ", ""},
		{"PING ", "[message]"},
		{"MULTI ", ""},
		{"GETDEL ", "key"},
		{"EXPIRE k 10 ", "[NX|XX|GT|LT]"},
		{"DEL a ", "[key ...]"},
		{"EVAL script ", "numkeys [key [key ...]] [arg [arg ...]]"},
		{"EVAL script 1 k ", "[key ...] [arg [arg ...]]"},
		{"EVALSHA sha 0 ", "[key [key ...]] [arg [arg ...]]"},
		// Subcommands of containers.
		{"CLIENT ", ""},
		{"CLIENT SET", ""}, // CLIENT takes no arguments of its own
		{"client setname ", "connection-name"},
		{"CLIENT SETNAME x ", ""},
		{"CONFIG GET ", "parameter [parameter ...]"},
		{"SCRIPT LOAD ", "script"},
		{"client bogus ", ""}, // the container has no argument spec
		// An optional repeating argument that has begun: the bracket
		// redis-cli closes without opening it is left out.
		// The optional argument being typed comes first.
		{"MIGRATE h 1 k 0 5 KEYS k ", "[key ...] [COPY] [REPLACE] [[AUTH password]|[AUTH2 username password]]"},
		{"MIGRATE h 1 k 0 5 KEYS ", "key [key ...] [COPY] [REPLACE] [[AUTH password]|[AUTH2 username password]]"},
		{"MIGRATE h 1 k 0 5 COPY KEYS k ", "[key ...] [REPLACE] [[AUTH password]|[AUTH2 username password]]"},
	} {
		words, space := splitInput(tc.input)
		if got := Hint(words, space); got != tc.want {
			t.Errorf("Hint(%q) = %q, want %q", tc.input, got, tc.want)
		}
	}
}

func TestScanNumbers(t *testing.T) {
	for _, tc := range []struct {
		w            string
		integer, dbl bool
	}{
		{"12", true, true},
		{"-3", true, true},
		{"+7x", true, true},
		{"x", false, false},
		{"", false, false},
		{"-", false, false},
		{".5", false, true},
		{"-.5", false, true},
		{".", false, false},
		{"inf", false, true},
		{"-INF", false, true},
		{"nan", false, true},
		{"in", false, false},
		{" 4", true, true},
	} {
		if got := scanInteger(tc.w); got != tc.integer {
			t.Errorf("scanInteger(%q) = %v", tc.w, got)
		}
		if got := scanDouble(tc.w); got != tc.dbl {
			t.Errorf("scanDouble(%q) = %v", tc.w, got)
		}
	}
}
