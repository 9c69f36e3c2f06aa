package words

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/lang/labfs"
)

// Messages of shell words the lab refuses, each saying what to do
// instead.
const (
	staysMsg   = "the lab stays in the folder it was given: name a script by its path from there (./x.sh, run labs/x.lab)"
	noJobTerm  = "the lab has no terminal to bring a job to, nor stopped jobs (fg, bg, disown): a job runs in the background to its end; jobs lists them, kill %N ends one, wait %N waits for it"
	noCodeMsg  = "the lab runs only code it has read and checked: write the commands out (a function, or a script run with run FILE.lab)"
	noHostMsg  = "the lab's shell has no host to ask: it runs the lab's words only (type help for them)"
	globMsg    = "globbing stays off in the lab, so that KEYS * reaches Redis as typed and no host folder is listed"
	notBuiltin = "not a shell builtin of the lab"
)

// shellWords are the interpreter's builtins as the lab has them: "" for a
// word that runs as the interpreter runs it, or why the lab refuses it.
// This is the whole list: a builtin of the interpreter missing here is
// not a lab command, so a newer interpreter's builtins stay out until
// someone decides. (eval, exec, type, command, time, select and set are
// Redis's in lower case too: see sharedNames; source and . are the lab's
// run.)
var shellWords = map[string]string{
	":": "", "true": "", "false": "", "exit": "", "return": "", "break": "", "continue": "",
	"shift": "", "unset": "", "set": "", "shopt": "", "read": "", "mapfile": "", "readarray": "",
	"getopts": "", "let": "", "printf": "", "echo": "", "wait": "", "jobs": "", "kill": "",
	"test": "", "[": "", "pwd": "", "alias": "", "unalias": "", "builtin": "",
	"export": "", "readonly": "", "declare": "", "typeset": "", "local": "",
	"cd": staysMsg, "pushd": staysMsg, "popd": staysMsg, "dirs": staysMsg,
	"fg": noJobTerm, "bg": noJobTerm, "disown": noJobTerm,
	"trap": noCodeMsg, "eval": noCodeMsg, "exec": noCodeMsg,
	"hash": noHostMsg, "type": noHostMsg, "command": noHostMsg, "umask": noHostMsg, "ulimit": noHostMsg,
	"times": noHostMsg, "enable": noHostMsg, "fc": noHostMsg, "history": noHostMsg, "bind": noHostMsg,
	"complete": noHostMsg, "compgen": noHostMsg, "compopt": noHostMsg, "caller": noHostMsg,
	"logout": noHostMsg, "suspend": noHostMsg, "newgrp": noHostMsg,
}

// isShellWord reports whether name is one of the interpreter's builtins
// in the lab's table (run or refused there).
func isShellWord(name string) bool {
	_, ok := shellWords[name]
	return ok
}

// UnwrapBuiltin is a line without its leading `builtin` words: `builtin
// eval x` is `eval x` as a shell word, which the one call handler then
// takes as it takes any line.
func UnwrapBuiltin(args []string) []string {
	for len(args) > 0 && args[0] == "builtin" {
		args = args[1:]
	}
	return args
}

// shellRefusal is why a line whose word is the shell's must not run, or
// nil.
func shellRefusal(args []string) *Error {
	if args[0] == "builtin" {
		return builtinRefusal(args)
	}
	if msg := shellWords[args[0]]; msg != "" {
		return &Error{Status: refusalStatus(args[0]), Msg: args[0] + ": " + msg}
	}
	if args[0] == "pwd" && slices.Contains(args, "-P") {
		return &Error{Status: 2, Msg: "pwd -P: the lab's folder is " + labfs.Root + ", which names no host folder: pwd says it"}
	}
	if (args[0] == "set" || args[0] == "shopt") && globsOn(args) {
		return &Error{Status: 2, Msg: strings.Join(args, " ") + ": " + globMsg}
	}
	return nil
}

// builtinRefusal refuses `builtin X` when X is not a shell builtin the
// lab runs; it is X's own refusal when the table has one.
func builtinRefusal(args []string) *Error {
	inner := UnwrapBuiltin(args)
	switch {
	case len(inner) == 0:
		return nil
	case !isShellWord(inner[0]) || inner[0] == "eval" || inner[0] == "exec":
		return &Error{Status: 1, Msg: fmt.Sprintf("builtin: %s: %s", inner[0], notBuiltinWhy(inner[0]))}
	}
	return shellRefusal(inner)
}

func notBuiltinWhy(name string) string {
	if msg := shellWords[name]; msg != "" {
		return msg
	}
	return notBuiltin
}

// refusalStatus is the status a refused word ends with, as bash's would
// fail: 1 for cd and job control, 2 otherwise (a usage error).
func refusalStatus(name string) int {
	switch shellWords[name] {
	case staysMsg, noJobTerm:
		return 1
	}
	return 2
}

// globsOn reports whether a set or shopt line turns globbing on: `set
// +f`, `set +o noglob` (also after other options: `set -o errexit +o
// noglob`), `shopt -u -o noglob`.
func globsOn(args []string) bool {
	if args[0] == "shopt" {
		return slices.Contains(args, "noglob") && slices.ContainsFunc(args[1:], func(a string) bool { return strings.HasPrefix(a, "-") && strings.Contains(a, "u") })
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false // the rest are $1, $2 ...
		case a == "+o" || a == "-o":
			if i+1 < len(args) && a == "+o" && args[i+1] == "noglob" {
				return true
			}
			i++ // the option's name
		case strings.HasPrefix(a, "+") && strings.Contains(a, "f"):
			return true
		}
	}
	return false
}
