package scripts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// TestSHA: each script's SHA is the name SCRIPT LOAD gives its body, on
// both kinds of server; Release's and FencedBook's are the ones recorded
// runs (repl/lab/check/testdata) and the annotator's test name.
func TestSHA(t *testing.T) {
	pinned := map[*scripts.Script]string{
		scripts.Release:    "d02e481a9c91ceec59c5822a58a49d5d5d7ac80b",
		scripts.FencedBook: "b1cea259c08b385346e577b3b60c86b011297d59",
	}
	for s, sha := range pinned {
		if s.SHA() != sha {
			t.Errorf("%s: SHA %s, want %s", s.Name, s.SHA(), sha)
		}
	}
	for kind, addr := range redistest.Servers(t) {
		conn := redistest.Dial(t, addr)
		for _, s := range scripts.All() {
			if r, _ := conn.Do("SCRIPT", "LOAD", s.Body); r.Kind != resp.Bulk || r.Str != s.SHA() {
				t.Errorf("%s: SCRIPT LOAD %s answered %v, want %s", kind, s.Name, r, s.SHA())
			}
		}
	}
}

// TestDocumented: every script says what it does and what its keys and
// arguments are, and uses no KEYS or ARGV it does not document.
func TestDocumented(t *testing.T) {
	names := map[string]bool{}
	for _, s := range scripts.All() {
		if s.Name == "" || names[s.Name] || s.Doc == "" || strings.Contains(s.Doc, "\n") || len(s.Keys) == 0 {
			t.Errorf("%q: a script has a name of its own, a one-line Doc and its keys named", s.Name)
		}
		names[s.Name] = true
		if s == scripts.Inspect {
			continue // as many keys as it reads, in a loop
		}
		for i := len(s.Keys) + 1; i <= 4; i++ {
			if strings.Contains(s.Body, "KEYS["+strconv.Itoa(i)+"]") {
				t.Errorf("%s: uses KEYS[%d], documents %d", s.Name, i, len(s.Keys))
			}
		}
		for i := len(s.Args) + 1; i <= 4; i++ {
			if strings.Contains(s.Body, "ARGV["+strconv.Itoa(i)+"]") {
				t.Errorf("%s: uses ARGV[%d], documents %d", s.Name, i, len(s.Args))
			}
		}
	}
}

// TestRun: the commands that run a script, on the embedded server.
func TestRun(t *testing.T) {
	conn := redistest.Dial(t, redistest.Embedded(t))
	conn.Do("SET", "lock:demo", "my-token", "PX", "5000")
	if r, _ := conn.Do(scripts.Release.Eval([]string{"lock:demo"}, "wrong-token")...); r.Kind != resp.Int || r.Int != 0 {
		t.Errorf("release with another's token: %v, want 0", r)
	}
	conn.Do("SCRIPT", "LOAD", scripts.Release.Body)
	if r, _ := conn.Do(scripts.Release.EvalSHA([]string{"lock:demo"}, "my-token")...); r.Kind != resp.Int || r.Int != 1 {
		t.Errorf("release with its own token: %v, want 1", r)
	}
	for args, want := range map[string]bool{
		"EVAL " + scripts.Release.Body:                      true,
		"evalsha " + strings.ToUpper(scripts.Release.SHA()): true,
		"EVAL_RO " + scripts.Release.Body:                   true,
		"EVAL " + scripts.Extend.Body:                       false,
		"EVALSHA " + scripts.Extend.SHA():                   false,
		"GET " + scripts.Release.Body:                       false,
		"EVAL":                                              false,
	} {
		name, script, _ := strings.Cut(args, " ")
		words := []string{name}
		if script != "" {
			words = append(words, script, "1", "lock:demo")
		}
		if got := scripts.Release.RunBy(words); got != want {
			t.Errorf("RunBy(%.40q): %v, want %v", args, got, want)
		}
	}
}

// TestOneHome searches the tree: no Go string outside this package and
// the tests spells a Lua call of Redis (redis.call, redis.pcall): a
// script the lab sends lives here, once. (The embedded server's Lua
// guard, repl/cli/server, would be excepted if it inspected code by
// such a string; it does not.)
func TestOneHome(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	here, _ := filepath.Abs(".")
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (path == here || path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		found++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && (strings.Contains(s, "redis.call") || strings.Contains(s, "redis.pcall")) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s: a Lua script spelled outside repl/lab/scripts: %.60q", rel, s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 100 {
		t.Fatalf("searched %d Go files under %s: not the module's tree", found, root)
	}
}

// TestReleaseAnnounced: given the waiting mark and a channel, a release
// that deletes the lock while the mark is set PUBLISHes the lock on the
// channel and takes the mark; with no mark set, or none given, it
// publishes nothing. On both kinds of server (load --retry notify waits
// on it there).
func TestReleaseAnnounced(t *testing.T) {
	for name, addr := range redistest.Servers(t) {
		t.Run(name, func(t *testing.T) {
			sub, conn := redistest.Dial(t, addr), redistest.Dial(t, addr)
			const channel = "lock:a:released"
			sub.Do("SUBSCRIBE", channel)
			marked := []string{"lock:a", "lock:a:waiting"}
			steps := []struct {
				lock  string   // the lock's value before (none: "")
				mark  bool     // a waiter set the mark
				run   []string // the release
				want  string   // its answer, as resp prints it
				taken bool     // the mark is gone after
			}{
				{"tok", true, scripts.ReleaseTold.Eval(marked, "other", channel), ":0", false},  // another's: kept, not announced
				{"tok", true, scripts.ReleaseTold.Eval([]string{"lock:a"}, "tok"), ":1", false}, // no mark given: not announced
				{"tok", false, scripts.ReleaseTold.Eval(marked, "tok", channel), ":1", false},   // nobody waits: not announced
				{"", true, scripts.BlindRelease.Eval(marked, channel), "nil", false},            // nothing deleted: not announced
				{"tok", true, scripts.ReleaseTold.Eval(marked, "tok", channel), ":1", true},     // announced
				{"tok2", true, scripts.BlindRelease.Eval(marked, channel), `"tok2"`, true},      // announced
				{"tok2", false, scripts.BlindRelease.Eval([]string{"lock:a"}), `"tok2"`, false}, // no mark given: not announced
			}
			for _, s := range steps {
				conn.Do("DEL", "lock:a", "lock:a:waiting")
				if s.lock != "" {
					conn.Do("SET", "lock:a", s.lock, "PX", "5000")
				}
				if s.mark {
					conn.Do("SET", "lock:a:waiting", "1")
				}
				if r, _ := conn.Do(s.run...); r.String() != s.want {
					t.Errorf("%s on %q: %v, want %s", s.run[0], s.lock, r, s.want)
				}
				if r, _ := conn.Do("EXISTS", "lock:a:waiting"); (r.Int == 0) != (s.taken || !s.mark) {
					t.Errorf("%s on %q, mark set %v: the mark exists %d after", s.run[0], s.lock, s.mark, r.Int)
				}
			}
			// Two messages, then the answer to the first PING: nothing else
			// was published. The embedded server (miniredis) writes each
			// message from a goroutine of its own after PUBLISH answered, so
			// a PING's answer may overtake them (docs/servers.md): there
			// the three come in any order.
			var got []string
			m, _ := sub.Do("PING", "mark")
			for i := range 3 {
				if i > 0 {
					m, _ = sub.Read()
				}
				if m.Kind != resp.Array || m.Elems[0].Str == "message" && (m.Elems[1].Str != channel || m.Elems[2].Str != "lock:a") {
					t.Fatalf("want two messages on %s naming lock:a and a pong, got %v", channel, m)
				}
				got = append(got, m.Elems[0].Str)
			}
			if name == "embedded" {
				slices.Sort(got)
			}
			if !slices.Equal(got, []string{"message", "message", "pong"}) {
				t.Fatalf("want two messages, then a pong; got %q", got)
			}
		})
	}
}
