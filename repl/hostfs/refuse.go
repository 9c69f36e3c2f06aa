package hostfs

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Refused is a line the lab will not run, with its exit status and what
// to tell the user.
type Refused struct {
	Status int
	Msg    string
}

// LabFile reports whether the shell may look at path: /dev/null and the
// lab's own scripts (.lab and .sh files, named from the folder locklab
// started in, and inside it). Every other path is the host's, and the lab
// language sees none of them.
func LabFile(p string) bool {
	ext := path.Ext(p)
	return p == "/dev/null" || (ext == ".lab" || ext == ".sh") && filepath.IsLocal(p)
}

// Refusal is why a shell builtin line must not run, or nil: it would
// change folder, turn globbing on (listing host folders) or test a host
// file.
func Refusal(args []string) *Refused {
	switch args[0] {
	case "cd", "pushd", "popd":
		return &Refused{Status: 1, Msg: args[0] + ": the lab stays in the folder locklab started in: name a script by its path from there (./x.sh, run labs/x.lab)"}
	case "set", "shopt":
		if globsOn(args) {
			return &Refused{Status: 2, Msg: strings.Join(args, " ") + ": globbing stays off in the lab, so that KEYS * reaches Redis as typed and no host folder is listed"}
		}
	case "test", "[":
		return fileTestRefusal(args)
	case "builtin":
		if len(args) > 1 {
			return Refusal(args[1:])
		}
	}
	return nil
}

// globsOn reports whether a set or shopt line turns globbing on: `set
// +f`, `set +o noglob`, `shopt -u -o noglob`.
func globsOn(args []string) bool {
	noglob := slices.Contains(args, "noglob")
	for _, a := range args[1:] {
		switch {
		case a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false
		case args[0] == "set" && strings.HasPrefix(a, "+") && (strings.Contains(a, "f") || strings.Contains(a, "o") && noglob):
			return true
		case args[0] == "shopt" && strings.HasPrefix(a, "-") && strings.Contains(a, "u") && noglob:
			return true
		}
	}
	return false
}

// fileTestRefusal refuses a test (or [) whose file operators name a path
// that is not a lab file: `[ -r /etc/shadow ]` answers nothing about the
// host, whatever is there.
func fileTestRefusal(args []string) *Refused {
	operands := args[1:]
	if args[0] == "[" && len(operands) > 0 && operands[len(operands)-1] == "]" {
		operands = operands[:len(operands)-1]
	}
	scan := &testScan{rem: operands}
	scan.expr(false)
	for _, f := range scan.files {
		if !LabFile(f) {
			return &Refused{Status: 2, Msg: fmt.Sprintf("%s: the lab sees no host files: file tests work only on the lab's scripts (x.lab, ./x.sh, from the folder locklab started in) and /dev/null", strings.Join(args, " "))}
		}
	}
	return nil
}

// testScan reads a test's words as the interpreter's parser does
// (mvdan.cc/sh/v3/interp's classicTest) and collects the operands its
// file operators would look at.
type testScan struct {
	rem   []string
	files []string
}

func (p *testScan) done() bool { return len(p.rem) == 0 || p.rem[0] == ")" }

// take is the next word ("" at the end).
func (p *testScan) take() string {
	if len(p.rem) == 0 {
		return ""
	}
	v := p.rem[0]
	p.rem = p.rem[1:]
	return v
}

// expr reads a primary (within -a/-o) or a comparison, then an operator
// and its right side. It returns the expression's word, when it is one.
func (p *testScan) expr(pastAndOr bool) (word string, isWord bool) {
	if pastAndOr {
		if p.done() {
			return "", false
		}
		word, isWord = p.primary()
	} else {
		word, isWord = p.expr(true)
	}
	if p.done() {
		return word, isWord
	}
	switch op := p.take(); op {
	case "-a", "-o":
		p.expr(false)
	case "-nt", "-ot", "-ef":
		if isWord {
			p.files = append(p.files, word)
		}
		p.files = append(p.files, p.take())
	default:
		p.take()
	}
	return "", false
}

// primary reads `! EXPR`, `( EXPR )`, a unary test or a word.
func (p *testScan) primary() (word string, isWord bool) {
	v := p.take()
	unary, file := unaryTest(v)
	switch {
	case v == "!":
		p.expr(false)
	case v == "(":
		p.expr(false)
		p.take() // the )
	case unary && len(p.rem) == 0:
		return v, true // `[ -e ]` is `[ -n -e ]`
	case unary && file:
		p.files = append(p.files, p.take())
	case unary:
		p.take()
	default:
		return v, true
	}
	return "", false
}

// unaryTest says whether v is a unary test operator, and whether it
// looks at a file.
func unaryTest(v string) (unary, file bool) {
	switch v {
	case "-e", "-a", "-f", "-d", "-c", "-b", "-p", "-S", "-L", "-h", "-k", "-g", "-u", "-G", "-O", "-N", "-r", "-w", "-x", "-s":
		return true, true
	case "-t", "-z", "-n", "-o", "-v", "-R":
		return true, false
	}
	return false, false
}
