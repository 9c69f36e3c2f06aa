package shell_test

// command is a simple command of the grammar: %p is a path, %w a word.
// tag names a hole already reported, for $HOSTILE_FUZZ_SKIP.
type command struct{ text, tag string }

// prefixes are the ways to spell a command's start.
var prefixes = []string{"", "", "", "", "builtin ", "builtin builtin ", `\builtin `, `"builtin" `, "b=builtin; $b ",
	"command ", "exec ", "eval ", "e=eval; $e ", "PATH=%p ", "TMPDIR={TMP} ", "x=%p "}

var commands = []command{
	{text: "echo %w"}, {text: "read x"}, {text: `read x; echo "$x"`}, {text: "printf '%s\\n' %w"},
	{text: `echo "$(< %p)"`}, {text: "x=$(< %p); echo \"$x\""}, {text: "echo `< %p`"},
	{text: "test -e %p"}, {text: "[ -f %p ]"}, {text: "[ -s %p ]"}, {text: "[ %p -nt %p ]"}, {text: "[ -r %p ] && echo yes"},
	{text: "run %p"}, {text: "run %p %w"}, {text: "source %p"}, {text: ". %p"}, {text: "explore %p"}, {text: "%p"}, {text: "./%p"},
	{text: "bash %p"}, {text: "sh %p"}, {text: "make %w"},
	{text: "eval 'echo x > %p'"}, {text: "builtin eval 'read x < %p'"}, {text: "exec 3< %p"}, {text: "exec > %p"},
	{text: "trap 'read x < %p' EXIT"}, {text: "type -P %w"}, {text: "hash -p %p h; h"}, {text: "command -v %w"},
	{text: "cd %p"}, {text: "pushd %p"}, {text: "set +f; echo %p/*"}, {text: "set -o errexit +o noglob; echo %p/*"},
	{text: "shopt -u -o noglob; echo %p*"}, {text: "set -- %p; set +f; echo $1*"},
	{text: "mapfile a < %p"}, {text: "while read l; do echo \"$l\"; done < %p"},
	{text: "export TMPDIR=%p"}, {text: "local x=%p"}, {text: "declare x=%p"}, {text: "readonly r=%p"}, {text: "unset x"},
	{text: "alias a='read x < %p'; a"}, {text: "let x=1"}, {text: "getopts a x"}, {text: "wait"}, {text: "jobs"},
	{text: "kill %1"}, {text: "sleep 0"}, {text: "true"}, {text: "pwd"},
	{text: `SET k "$(< %p)"`}, {text: "GET k"}, {text: "PING %w"}, {text: "timeline --svg %p"},
	{text: "redis-cli -x SET k"}, {text: "redis-cli PING"}, {text: "docker exec redis-lesson redis-cli PING"},
	{text: "redis-cli --tls --cacert %p PING", tag: "tls"}, {text: "redis-cli --tls --cert %p --key %p PING", tag: "tls"},
	{text: "docker exec redis-lesson redis-cli --tls --cacert %p PING", tag: "tls"},
	{text: "redis-cli -s %p PING", tag: "socket"},
	{text: `EVAL "return dofile('%p')" 0`, tag: "lua"}, {text: `EVAL "return loadfile('%p')" 0`, tag: "lua"},
}

// redirOps are the redirections POSIX parses (&> is & then >).
var redirOps = []string{">", ">>", "<", "<>", "2>", ">|", "3>", "3<", "0<", "&>", ">&", "1>&2 >", "> /dev/null >"}

// paths are host paths and lab paths for every slot: the canaries, the
// ways out of the lab folder, the interpreter's FIFO prefix, and files
// that must never be made.
var paths = []string{
	"{OUT}/secret.sh", "{OUT}/secret.lab", "{OUT}/canary.txt", "{OUT}/secret.lua", "{OUT}/canary.fifo", "{OUT}/pipe.lab",
	"{OUT}/created.txt", "{OUT}/created.lab", "{OUT}", "{OUT}/home/.profile",
	"{TMP}/sh-interp-canary", "{TMP}/sh-interp-x", "$TMPDIR/sh-interp-x", "/tmp/sh-interp-lockfuzz",
	"../secret.lab", "../canary.txt", "/lab/../secret.lab", "link.lab", "abs.sh", "out/secret.lab", "out/canary.txt",
	"linkfifo.lab", "fifo.lab", "x.lab", "hello.sh", "sub/inner.lab", "created.lab", "{LAB}/x.lab",
	"/dev/null", `"$x"`, `"$p"`, `"$(echo {OUT})/canary.txt"`, "~/.profile", "$HOME/x.lab", "/proc/self/environ",
}

// words are arguments that are not paths.
var words = []string{"x", "PWNED", `"$x"`, "$(echo hi)", "$HOME", "$TMPDIR", "$PWD", "*", "~", "sh", "ls", "break", "%1"}
