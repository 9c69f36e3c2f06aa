package words_test

import (
	"testing"

	"github.com/locklab/locklab/repl/lang/words"
)

// classifyCase is one command line and what Classify must make of it in
// one mode. name is the word to run; "" means the typed first word.
type classifyCase struct {
	what string // what a user sees
	args []string
	mode words.Mode
	kind words.Kind
	name string
}

// inBoth is the same expectation in the lab language (REPL, scripts, -c)
// and where locklab stands in for redis-cli (arguments, piped input):
// the rule that differs between them is only for unknown lower-case words.
func inBoth(what string, args []string, kind words.Kind, name string) []classifyCase {
	return []classifyCase{
		{what, args, words.Lang, kind, name},
		{what, args, words.StandIn, kind, name},
	}
}

func classifyCases() []classifyCase {
	var cs []classifyCase
	add := func(c ...classifyCase) { cs = append(cs, c...) }

	// Nothing typed runs nothing.
	add(inBoth("an empty line runs nothing", nil, words.Unknown, "")...)

	// Redis/shell name clashes. Upper case is always Redis: a bug routing
	// `SET`, `ECHO` or `WAIT` to the shell would print the shell's answer
	// (or wait for jobs) instead of the server's reply.
	for _, w := range []string{"SET", "EVAL", "EXEC", "WAIT", "ECHO", "TYPE", "SELECT", "TIME", "COMMAND"} {
		add(inBoth(w+" in upper case is sent to Redis", []string{w, "x"}, words.Redis, "")...)
	}
	// Lower case is Redis too, except echo, wait and set -e/+f: a bug here
	// makes `select 1` or `type k` run the shell's builtin (`type` would
	// print "type: k: not found") instead of the server's reply.
	for _, w := range []string{"set", "eval", "exec", "type", "select", "time", "command"} {
		add(inBoth(w+" in lower case is sent to Redis", []string{w, "k", "v"}, words.Redis, "")...)
	}
	add(inBoth("lower-case set with no arguments is Redis's (its arity error)", []string{"set"}, words.Redis, "")...)
	add(inBoth("echo in lower case prints like the shell's echo", []string{"echo", "hi"}, words.Shell, "")...)
	add(inBoth("wait in lower case waits for the line's jobs", []string{"wait"}, words.Shell, "")...)
	add(inBoth("set -e is the shell's option, not a Redis SET", []string{"set", "-e"}, words.Shell, "")...)
	add(inBoth("set +f is the shell's option, not a Redis SET", []string{"set", "+f"}, words.Shell, "")...)
	add(inBoth("set k -1 is a Redis SET (only the first argument counts)", []string{"set", "k", "-1"}, words.Redis, "")...)
	add(inBoth("quit ends the run as exit does", []string{"quit"}, words.Shell, "exit")...)

	// Interpreter builtins stay the shell's: a bug sending `[` or `test` to
	// Redis would make every `if [ ... ]` answer ERR unknown command.
	for _, w := range []string{"cd", "true", "test", "[", "exit", "printf"} {
		add(inBoth(w+" is the shell's builtin", []string{w, "x"}, words.Shell, "")...)
	}

	// Lab words and macros: found in the table, never sent to Redis.
	add(inBoth("sleep is the lab's sleep", []string{"sleep", "1"}, words.Lab, "")...)
	add(inBoth("redis-cli runs the emulated redis-cli", []string{"redis-cli", "PING"}, words.Lab, "")...)
	add(inBoth("expect checks the run", []string{"expect", "GET", "k", "==", "1"}, words.Lab, "")...)
	add(inBoth("book runs the lesson's booking macro", []string{"book", "alice"}, words.Macro, "")...)
	add(inBoth("book-locked runs the locked booking macro", []string{"book-locked", "bob"}, words.Macro, "")...)

	// Sessions.
	add(inBoth("@alice runs the rest of the line in session alice", []string{"@alice", "GET", "k"}, words.Session, "")...)

	// Scripts: the aliases and paths. A bug here sends `./x.sh` to Redis
	// (ERR unknown command './x.sh') or refuses `run`.
	for _, w := range []string{"run", "source", ".", "bash", "sh"} {
		add(inBoth(w+" x.lab runs the script file", []string{w, "x.lab"}, words.Script, "")...)
	}
	add(inBoth("./x.sh runs the script file", []string{"./x.sh"}, words.Script, "")...)
	add(inBoth("scripts/a.lab runs the script file", []string{"scripts/a.lab", "arg"}, words.Script, "")...)

	// redis-cli's repeat: `3 INCR n` runs INCR three times; `3` alone is
	// not a repeat of nothing (a bug would loop over an empty command).
	add(inBoth("3 INCR n runs INCR n three times", []string{"3", "INCR", "n"}, words.Repeat, "")...)
	add(classifyCase{"3 alone is refused, not a repeat", []string{"3"}, words.Lang, words.Unknown, ""})
	add(classifyCase{"3 alone goes to the server as redis-cli sends it", []string{"3"}, words.StandIn, words.Redis, ""})
	add(classifyCase{"0 INCR n is no repeat: refused", []string{"0", "INCR", "n"}, words.Lang, words.Unknown, ""})

	// Module commands and upper-case unknowns: the server answers for them
	// in both modes (a bug refusing json.set would break RedisJSON users).
	add(inBoth("json.set goes to the server (a module command)", []string{"json.set", "k", "$", "{}"}, words.Redis, "")...)
	add(inBoth("JSON.SET goes to the server", []string{"JSON.SET", "k", "$", "{}"}, words.Redis, "")...)
	add(inBoth("FOO goes to the server, which says unknown command", []string{"FOO", "bar"}, words.Redis, "")...)
	add(inBoth("lower-case get is a Redis command", []string{"get", "k"}, words.Redis, "")...)

	// Lower-case unknown words: refused in the lab language (status 127,
	// "not a lab command"), sent to the server where locklab stands in for
	// redis-cli. A bug mixing the modes either lets `rm` through in a
	// script or refuses what redis-cli would send.
	for _, w := range []string{"rm", "unknowncmd", "curl"} {
		add(classifyCase{w + " is refused in the lab language", []string{w, "a"}, words.Lang, words.Unknown, ""})
		add(classifyCase{w + " goes to the server as redis-cli sends it", []string{w, "a"}, words.StandIn, words.Redis, ""})
	}
	return cs
}

func TestClassify(t *testing.T) {
	modeName := map[words.Mode]string{words.Lang: "lang", words.StandIn: "standin"}
	for _, c := range classifyCases() {
		t.Run(modeName[c.mode]+"/"+c.what, func(t *testing.T) {
			want := c.name
			if want == "" && len(c.args) > 0 {
				want = c.args[0]
			}
			got := words.Classify(c.args, c.mode)
			if got.Kind != c.kind || got.Name != want {
				t.Errorf("Classify(%q, %s) = %s %q, want %s %q", c.args, modeName[c.mode], got.Kind, got.Name, c.kind, want)
			}
			// Lab words and macros carry their table entry (dispatch runs
			// its Run); a nil Word would panic at dispatch.
			if (got.Kind == words.Lab || got.Kind == words.Macro) && (got.Word == nil || got.Word.Name != want) {
				t.Errorf("Classify(%q).Word = %v, want the table's %q", c.args, got.Word, want)
			}
		})
	}
}

// TestClassifyTable: each word of the table classifies as its own kind
// (a shared name or alias shadowing a table word would make help list a
// word that never runs), and no two words share a name (Find would
// return only one of them).
func TestClassifyTable(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range words.Table() {
		if seen[w.Name] {
			t.Errorf("two table words are called %q", w.Name)
		}
		seen[w.Name] = true
		for _, mode := range []words.Mode{words.Lang, words.StandIn} {
			if got := words.Classify([]string{w.Name, "alice"}, mode); got.Kind != w.Kind || got.Name != w.Name {
				t.Errorf("Classify(%q, %d) = %s %q, want its table kind %s", w.Name, mode, got.Kind, got.Name, w.Kind)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("the table is empty")
	}
}

// TestClassifyHostRefusal: the shell's words the lab refuses are refused,
// with a status, however they are called (builtin X is X); the words it
// keeps run. File tests are not Classify's: they run, and the view
// (repl/lang/labfs) answers them. A bug here either lets `builtin eval` or
// `builtin type -P` reach the interpreter's own code, or refuses an
// ordinary line.
func TestClassifyHostRefusal(t *testing.T) {
	for _, c := range []struct {
		what   string
		args   []string
		status int // 0: not refused
	}{
		{"cd changes no folder", []string{"cd", "/"}, 1},
		{"cd alone is refused too", []string{"cd"}, 1},
		{"pushd is refused", []string{"pushd", "/etc"}, 1},
		{"popd is refused", []string{"popd"}, 1},
		{"builtin cd is cd", []string{"builtin", "cd", "/"}, 1},
		{"set +f would glob host folders", []string{"set", "+f"}, 2},
		{"set +ef turns globbing on too", []string{"set", "+ef"}, 2},
		{"set +o noglob is set +f", []string{"set", "+o", "noglob"}, 2},
		{"shopt -u -o noglob is set +f", []string{"shopt", "-u", "-o", "noglob"}, 2},
		{"builtin set +f is set +f", []string{"builtin", "set", "+f"}, 2},
		{"set -f keeps globbing off", []string{"set", "-f"}, 0},
		{"set -e is an ordinary option", []string{"set", "-e"}, 0},
		{"set +e is an ordinary option", []string{"set", "+e"}, 0},
		{"set -- +f sets $1", []string{"set", "--", "+f"}, 0},
		{"builtin eval runs no string as code", []string{"builtin", "eval", "f & f"}, 1},
		{"builtin builtin eval is builtin eval", []string{"builtin", "builtin", "eval", "x"}, 1},
		{"builtin exec starts nothing", []string{"builtin", "exec", "ls"}, 1},
		{"builtin type asks no PATH", []string{"builtin", "type", "-P", "ls"}, 2},
		{"builtin command asks no PATH", []string{"builtin", "command", "-v", "ls"}, 2},
		{"builtin . sources nothing from PATH", []string{"builtin", ".", "shadow"}, 1},
		{"builtin source is not the lab's run", []string{"builtin", "source", "x.sh"}, 1},
		{"hash asks no PATH", []string{"hash", "ls"}, 2},
		{"trap runs no string as code", []string{"trap", "f & f", "EXIT"}, 2},
		{"umask touches no file", []string{"umask", "0"}, 2},
		{"fg has no terminal", []string{"fg", "%1"}, 1},
		{"builtin of a non-builtin", []string{"builtin", "ls"}, 1},
		{"builtin echo is echo", []string{"builtin", "echo", "hi"}, 0},
		{"builtin alone does nothing", []string{"builtin"}, 0},
		{"a file test runs: the view answers it", []string{"[", "-r", "/etc/shadow", "]"}, 0},
		{"builtin test runs too", []string{"builtin", "test", "-s", "/etc/shadow"}, 0},
		{"a lab script may be tested", []string{"[", "-r", "./book_no_lock.sh", "]"}, 0},
		{"-r as a string to compare", []string{"[", "x", "=", "-r", "]"}, 0},
	} {
		t.Run(c.what, func(t *testing.T) {
			got := words.Classify(c.args, words.Lang)
			switch {
			case c.status == 0 && got.Refusal != nil:
				t.Errorf("Classify(%q) refuses it (%s), want it run", c.args, got.Refusal.Msg)
			case c.status != 0 && got.Refusal == nil:
				t.Errorf("Classify(%q) lets it run, want it refused with status %d", c.args, c.status)
			case c.status != 0 && (got.Refusal.Status != c.status || got.Refusal.Msg == ""):
				t.Errorf("Classify(%q) refuses it with status %d and %q, want status %d and a message", c.args, got.Refusal.Status, got.Refusal.Msg, c.status)
			}
		})
	}
}
