package expect

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
)

// Help documents expect's grammar (help expect), with the kinds of
// verdict check knows.
func Help() string { return help + kindList() }

const help = `expect makes a .lab script check itself; a failed expectation prints
FILE:LINE:COL: expected ..., got ... and the script exits 1 at its end.
  expect CMD [ARG ...] OP VALUE   send CMD (untraced, on a connection of its own) and compare
                                  its raw reply: expect LLEN room:2pm:bookings == 2
  expect reply [OP] VALUE         the last reply printed (in a job: the job's last): expect reply 0
  expect verdict KIND             the run's verdict so far includes KIND
  expect no KIND                  ... and does not include KIND
  expect lines REGEX OP N         how many output lines so far match REGEX
OP is one of == != < <= > >= or -eq -ne -lt -le -gt -ge (numbers compare as numbers);
quote < and > ('>='), which the shell would otherwise read as redirections. A nil reply is "".
KIND is one of: `

var operators = []string{"==", "!=", "<", "<=", ">", ">=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"}

// testOps are test(1)'s spellings, which need no quoting in the shell
// (an unquoted > or < is a redirection).
var testOps = map[string]string{"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}

// Expectation is one parsed expect line.
type Expectation struct {
	Kind  string   // "cmd", "reply", "verdict", "no", "lines"
	Args  []string // the command, or the regex
	Op    string
	Value string
}

// Parse reads expect's arguments; the error says what is wrong.
func Parse(args []string) (Expectation, error) {
	if len(args) == 0 {
		return Expectation{}, fmt.Errorf("expect needs something to check (see help expect)")
	}
	switch args[0] {
	case "verdict", "no":
		kind, ok := check.Kind(""), false
		if len(args) == 2 {
			kind, ok = check.ParseKind(args[1])
		}
		if !ok {
			return Expectation{}, fmt.Errorf("expect %s KIND: KIND is one of %s", args[0], kindList())
		}
		return Expectation{Kind: args[0], Value: string(kind)}, nil
	case "reply":
		if len(args) == 2 {
			return Expectation{Kind: "reply", Op: "==", Value: args[1]}, nil
		}
		if len(args) == 3 && slices.Contains(operators, args[1]) {
			return Expectation{Kind: "reply", Op: args[1], Value: args[2]}, nil
		}
		return Expectation{}, fmt.Errorf("expect reply [OP] VALUE, e.g. expect reply 0")
	}
	n := len(args)
	if n < 3 || !slices.Contains(operators, args[n-2]) {
		return Expectation{}, fmt.Errorf("expect %s: want ... OP VALUE at the end, OP one of %s", strings.Join(session.Redact(args), " "), strings.Join(operators, " "))
	}
	e := Expectation{Kind: "cmd", Args: args[:n-2], Op: args[n-2], Value: args[n-1]}
	if args[0] == "lines" {
		if _, err := regexp.Compile(strings.Join(args[1:n-2], " ")); err != nil || n != 4 {
			return Expectation{}, fmt.Errorf("expect lines REGEX OP N: one regular expression, quoted")
		}
		e.Kind, e.Args = "lines", args[1:n-2]
	}
	return e, nil
}

func kindList() string {
	var out []string
	for _, k := range check.Kinds {
		out = append(out, string(k))
	}
	return strings.Join(out, " ")
}

func (e Expectation) String() string {
	switch e.Kind {
	case "verdict":
		return "verdict " + e.Value
	case "no":
		return "no " + e.Value
	case "reply":
		return fmt.Sprintf("reply %s %q", e.Op, e.Value)
	case "lines":
		return fmt.Sprintf("lines %q %s %s", e.Args[0], e.Op, e.Value)
	}
	return fmt.Sprintf("%s %s %s", strings.Join(session.Redact(e.Args), " "), e.Op, e.Value)
}

// Compare compares as numbers when both sides are numbers, else as text.
func Compare(got, op, want string) bool {
	if o, ok := testOps[op]; ok {
		op = o
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	c := strings.Compare(got, want)
	if err1 == nil && err2 == nil {
		c = 0
		if g < w {
			c = -1
		} else if g > w {
			c = 1
		}
	}
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}
