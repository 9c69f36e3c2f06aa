package resp_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Each testdata/NAME.resp holds the bytes of one reply; NAME.tty.golden and
// NAME.raw.golden hold what redis-cli prints for it on a terminal and on a
// pipe. For the cases in goldenCases all three files come from a real
// redis-server and the real redis-cli:
//
//	go test ./repl/cli/resp/ -run TestGolden -regen-from-redis-cli
//
// The hand_* cases are replies no server command produces; their goldens
// are written by hand from redis-cli.c (testdata/HANDWRITTEN.md says how)
// and only they may be rewritten with -update.
var (
	update = flag.Bool("update", false, "rewrite the goldens of the hand_* cases from the formatter")
	regen  = flag.Bool("regen-from-redis-cli", false, "regenerate the other cases from redis-server and redis-cli")
)

// goldenCase is a reply that redis-server produces for a command.
type goldenCase struct {
	name   string     // testdata file name, without extension
	proto  int        // 2 or 3 (HELLO 3, redis-cli -3)
	setup  [][]string // run on an empty database first
	args   []string
	pubsub bool // SUBSCRIBE: redis-cli never exits, and prints a banner
}

// Lua scripts for the nested replies.
const (
	luaNested = `return {1, {2, {3, 'x'}, {}}, 3, 4, 5, 6, 7, 8, 9, 10,
		{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'},
		{ok = 'fine'}, {err = 'ERR nested'}, false, {{}}}`
	luaHundred = `local t = {} for i = 1, 100 do t[i] = i end t[101] = {'a', {'b'}} return t`
	luaDeep    = `return {{{{{{{{'deep', {}}}}}}}}, 'shallow'}`
	luaMapRESP = `redis.setresp(3)
		return {map = {multi = {1, 2, {map = {x = 1}}}, single = {map = {y = {1}}},
			empty = {map = {}}, emptyset = {set = {}}, s = {set = {a = true, b = true}},
			d = {double = 3.5}, t = true, f = false, n = {1, {2, 3}}}}`
)

var (
	kv      = [][]string{{"SET", "k", "v"}}
	list12  = [][]string{{"RPUSH", "l", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}}
	hash    = [][]string{{"HSET", "h", "field", "value", "f2", "multi\nline"}}
	zset12  = [][]string{{"ZADD", "z", "1", "a", "1.5", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6", "g", "7", "h", "8", "i", "9", "j", "10", "k", "-0.25", "l"}}
	stream  = [][]string{{"XADD", "s", "1-1", "seat", "42A", "who", "alice"}, {"XADD", "s", "2-1", "seat", "42A", "who", "bob"}}
	intset  = [][]string{{"SADD", "s", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}}
	geo     = [][]string{{"GEOADD", "g", "13.361389", "38.115556", "Palermo"}}
	escapes = [][]string{{"SET", "k", allBytes()}}
)

var goldenCases = []goldenCase{
	{name: "r2_status_ok", proto: 2, args: []string{"SET", "k", "v"}},
	{name: "r2_status_type", proto: 2, setup: kv, args: []string{"TYPE", "k"}},
	{name: "r2_bulk", proto: 2, setup: kv, args: []string{"GET", "k"}},
	{name: "r2_bulk_empty", proto: 2, setup: [][]string{{"SET", "k", ""}}, args: []string{"GET", "k"}},
	{name: "r2_bulk_all_bytes", proto: 2, setup: escapes, args: []string{"GET", "k"}},
	{name: "r2_bulk_utf8", proto: 2, args: []string{"ECHO", "héllo, 你好 ✓"}},
	{name: "r2_bulk_quotes", proto: 2, args: []string{"ECHO", `say "hi" \ C:\dir` + "\t\r\n"}},
	{name: "r2_nil_bulk", proto: 2, args: []string{"GET", "missing"}},
	{name: "r2_nil_array", proto: 2, args: []string{"BLPOP", "missing", "0.01"}},
	{name: "r2_int", proto: 2, setup: [][]string{{"SET", "n", "41"}}, args: []string{"INCR", "n"}},
	{name: "r2_int_min", proto: 2, setup: [][]string{{"SET", "n", "-9223372036854775808"}}, args: []string{"INCRBY", "n", "0"}},
	{name: "r2_error_unknown", proto: 2, args: []string{"FOO", "bar", "baz qux"}},
	{name: "r2_error_arity", proto: 2, args: []string{"GET"}},
	{name: "r2_error_exec", proto: 2, args: []string{"EXEC"}},
	{name: "r2_error_wrongtype", proto: 2, setup: list12, args: []string{"GET", "l"}},
	{name: "r2_error_script", proto: 2, args: []string{"EVAL", `return {err = 'my "quoted" error'}`, "0"}},
	{name: "r2_empty_array", proto: 2, args: []string{"LRANGE", "missing", "0", "-1"}},
	{name: "r2_array_12", proto: 2, setup: list12, args: []string{"LRANGE", "l", "0", "-1"}},
	{name: "r2_array_nested", proto: 2, args: []string{"EVAL", luaNested, "0"}},
	{name: "r2_array_101", proto: 2, args: []string{"EVAL", luaHundred, "0"}},
	{name: "r2_array_deep", proto: 2, args: []string{"EVAL", luaDeep, "0"}},
	{name: "r2_array_with_nil", proto: 2, setup: kv, args: []string{"MGET", "k", "missing", "k"}},
	{name: "r2_empty_nested", proto: 2, args: []string{"SCAN", "0", "MATCH", "nomatch*"}},
	{name: "r2_zrange_withscores", proto: 2, setup: zset12, args: []string{"ZRANGE", "z", "0", "-1", "WITHSCORES"}},
	{name: "r2_xrange", proto: 2, setup: stream, args: []string{"XRANGE", "s", "-", "+"}},
	{name: "r2_hgetall", proto: 2, setup: hash, args: []string{"HGETALL", "h"}},
	{name: "r2_geopos", proto: 2, setup: geo, args: []string{"GEOPOS", "g", "Palermo", "Atlantis"}},
	{name: "r2_lua_map", proto: 2, args: []string{"EVAL", luaMapRESP, "0"}},
	{name: "r2_debug_attrib", proto: 2, args: []string{"DEBUG", "PROTOCOL", "attrib"}},

	{name: "r3_map", proto: 3, setup: hash, args: []string{"HGETALL", "h"}},
	{name: "r3_map_empty", proto: 3, args: []string{"HGETALL", "missing"}},
	{name: "r3_map_config_max", proto: 3, args: []string{"CONFIG", "GET", "*max*"}},
	{name: "r3_map_debug", proto: 3, args: []string{"DEBUG", "PROTOCOL", "map"}},
	{name: "r3_map_nested", proto: 3, args: []string{"EVAL", luaMapRESP, "0"}},
	{name: "r3_xinfo_stream", proto: 3, setup: stream, args: []string{"XINFO", "STREAM", "s"}},
	{name: "r3_command_info", proto: 3, args: []string{"COMMAND", "INFO", "GET"}},
	{name: "r3_set_12", proto: 3, setup: intset, args: []string{"SMEMBERS", "s"}},
	{name: "r3_set_empty", proto: 3, args: []string{"SMEMBERS", "missing"}},
	{name: "r3_set_debug", proto: 3, args: []string{"DEBUG", "PROTOCOL", "set"}},
	{name: "r3_double", proto: 3, setup: zset12, args: []string{"ZSCORE", "z", "l"}},
	{name: "r3_double_debug", proto: 3, args: []string{"DEBUG", "PROTOCOL", "double"}},
	{name: "r3_zrange_withscores", proto: 3, setup: zset12, args: []string{"ZRANGE", "z", "0", "-1", "WITHSCORES"}},
	{name: "r3_geopos", proto: 3, setup: geo, args: []string{"GEOPOS", "g", "Palermo", "Atlantis"}},
	{name: "r3_bool_true", proto: 3, args: []string{"DEBUG", "PROTOCOL", "true"}},
	{name: "r3_bool_false", proto: 3, args: []string{"DEBUG", "PROTOCOL", "false"}},
	{name: "r3_null", proto: 3, args: []string{"GET", "missing"}},
	{name: "r3_null_array", proto: 3, args: []string{"BLPOP", "missing", "0.01"}},
	{name: "r3_verbatim", proto: 3, args: []string{"DEBUG", "PROTOCOL", "verbatim"}},
	{name: "r3_bulk_all_bytes", proto: 3, setup: escapes, args: []string{"GET", "k"}},
	{name: "r3_error", proto: 3, args: []string{"FOO"}},
	{name: "r3_push_subscribe", proto: 3, args: []string{"SUBSCRIBE", "news"}, pubsub: true},
}

func TestGolden(t *testing.T) {
	if *regen {
		regenerate(t)
	}
	files, err := filepath.Glob("testdata/*.resp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.resp: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".resp")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkGolden(t, name)
		})
	}
}

// checkGolden parses testdata/name.resp and compares both formats with
// the goldens.
func checkGolden(t *testing.T, name string) {
	hand := strings.HasPrefix(name, "hand_")
	if !hand && !slices.ContainsFunc(goldenCases, func(c goldenCase) bool { return c.name == name }) {
		t.Fatalf("%s.resp is neither in goldenCases nor a hand_* case", name)
	}
	in := readFile(t, "testdata/"+name+".resp")
	r, n, err := resp.Parse(in)
	if err != nil || n != len(in) {
		t.Fatalf("Parse = %v, %d of %d bytes, %v", r, n, len(in), err)
	}
	for _, f := range []struct {
		ext    string
		format func(resp.Reply) string
	}{{".tty.golden", resp.FormatTTY}, {".raw.golden", resp.FormatRaw}} {
		path := "testdata/" + name + f.ext
		got := f.format(r)
		if *update && hand {
			writeFile(t, path, []byte(got))
		}
		if want := string(readFile(t, path)); got != want {
			t.Errorf("%s differs for %v\ngot:\n%s\nwant:\n%s\ngot %q\nwant %q", path, r, got, want, got, want)
		}
	}
}

// regenerate rewrites the goldenCases files from a real redis-server and
// the real redis-cli: our formatter has no say in them.
func regenerate(t *testing.T) {
	addr := realRedis(t)
	ctrl := dial(t, addr, 2)
	for _, c := range goldenCases {
		conn := dial(t, addr, c.proto)
		reset(t, ctrl, c.setup)
		_, raw := conn.Do(c.args...)
		writeFile(t, "testdata/"+c.name+".resp", raw)
		for _, tty := range []bool{true, false} {
			reset(t, ctrl, c.setup)
			o := cliOpts{proto: c.proto, tty: tty}
			if c.pubsub {
				o.wait = time.Second
			}
			out := redisCLI(t, addr, o, c.args)
			if c.pubsub && tty {
				out = strings.TrimPrefix(out, pubsubBanner)
			}
			ext := map[bool]string{true: ".tty.golden", false: ".raw.golden"}[tty]
			writeFile(t, "testdata/"+c.name+ext, []byte(out))
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenCasesHaveFiles makes sure no case in goldenCases was added
// without regenerating.
func TestGoldenCasesHaveFiles(t *testing.T) {
	for _, c := range goldenCases {
		for _, ext := range []string{".resp", ".tty.golden", ".raw.golden"} {
			if _, err := os.Stat("testdata/" + c.name + ext); err != nil {
				t.Errorf("%v: run go test -run TestGolden -regen-from-redis-cli", err)
			}
		}
	}
}
