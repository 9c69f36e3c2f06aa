package words

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/record"
	"github.com/locklab/locklab/repl/session"
)

// expectHelp documents expect's grammar (help expect).
const expectHelp = `expect makes a .lab script check itself; a failed expectation prints
FILE:LINE:COL: expected ..., got ... and the script exits 1 at its end.
  expect CMD [ARG ...] OP VALUE   send CMD (untraced, on a connection of its own) and compare
                                  its raw reply: expect LLEN room:2pm:bookings == 2
  expect reply [OP] VALUE         the last reply printed (in a job: the job's last): expect reply 0
  expect verdict KIND             the run's verdict so far includes KIND
  expect no KIND                  ... and does not include KIND
  expect lines REGEX OP N         how many output lines so far match REGEX
OP is one of == != < <= > >= or -eq -ne -lt -le -gt -ge (numbers compare as numbers);
quote < and > ('>='), which the shell would otherwise read as redirections. A nil reply is "".
KIND is one of: double-booking wrong-owner-del overlap expired-while-held blind-del two-holders all-clear`

var operators = []string{"==", "!=", "<", "<=", ">", ">=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"}

// testOps are test(1)'s spellings, which need no quoting in the shell
// (an unquoted > or < is a redirection).
var testOps = map[string]string{"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}

// expectation is one parsed expect line.
type expectation struct {
	kind  string   // "cmd", "reply", "verdict", "no", "lines"
	args  []string // the command, or the regex
	op    string
	value string
}

// ParseExpect reads expect's arguments; the error says what is wrong.
func ParseExpect(args []string) (expectation, error) {
	if len(args) == 0 {
		return expectation{}, fmt.Errorf("expect needs something to check (see help expect)")
	}
	switch args[0] {
	case "verdict", "no":
		if len(args) != 2 || !slices.Contains(check.Kinds, check.Kind(args[1])) {
			return expectation{}, fmt.Errorf("expect %s KIND: KIND is one of %s", args[0], kindList())
		}
		return expectation{kind: args[0], value: args[1]}, nil
	case "reply":
		if len(args) == 2 {
			return expectation{kind: "reply", op: "==", value: args[1]}, nil
		}
		if len(args) == 3 && slices.Contains(operators, args[1]) {
			return expectation{kind: "reply", op: args[1], value: args[2]}, nil
		}
		return expectation{}, fmt.Errorf("expect reply [OP] VALUE, e.g. expect reply 0")
	}
	n := len(args)
	if n < 3 || !slices.Contains(operators, args[n-2]) {
		return expectation{}, fmt.Errorf("expect %s: want ... OP VALUE at the end, OP one of %s", strings.Join(session.Redact(args), " "), strings.Join(operators, " "))
	}
	e := expectation{kind: "cmd", args: args[:n-2], op: args[n-2], value: args[n-1]}
	if args[0] == "lines" {
		if _, err := regexp.Compile(strings.Join(args[1:n-2], " ")); err != nil || n != 4 {
			return expectation{}, fmt.Errorf("expect lines REGEX OP N: one regular expression, quoted")
		}
		e.kind, e.args = "lines", args[1:n-2]
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

// expect runs one expectation and reports a failure at its position.
func expect(ctx context.Context, env Env, args []string) error {
	e, err := ParseExpect(args[1:])
	if err != nil {
		return expectFailed(env, err.Error(), 2)
	}
	got, ok, err := evaluate(ctx, env, e)
	if err != nil {
		env.Recorder().Expected(false)
		return err
	}
	if !ok {
		return expectFailed(env, fmt.Sprintf("expected %s, got %s", e, got), 1)
	}
	env.Recorder().Expected(true)
	return nil
}

// expectFailed counts a failed expectation and reports it as
// FILE:LINE:COL: msg.
func expectFailed(env Env, msg string, status int) error {
	env.Recorder().Expected(false)
	return &Error{Status: status, Msg: env.Position() + ": " + msg, Bare: true}
}

func (e expectation) String() string {
	switch e.kind {
	case "verdict":
		return "verdict " + e.value
	case "no":
		return "no " + e.value
	case "reply":
		return fmt.Sprintf("reply %s %q", e.op, e.value)
	case "lines":
		return fmt.Sprintf("lines %q %s %s", e.args[0], e.op, e.value)
	}
	return fmt.Sprintf("%s %s %s", strings.Join(session.Redact(e.args), " "), e.op, e.value)
}

// evaluate checks e and says what was found.
func evaluate(ctx context.Context, env Env, e expectation) (string, bool, error) {
	switch e.kind {
	case "verdict", "no":
		kinds := findingKinds(env.Findings(ctx))
		has := slices.Contains(kinds, check.Kind(e.value))
		return "verdict " + strings.Join(kindStrings(kinds), ", "), has == (e.kind == "verdict"), nil
	case "reply":
		got := env.Recorder().LastReply(env.Session())
		return strconv.Quote(got), compare(got, e.op, e.value), nil
	case "lines":
		n := env.Output().Count(regexp.MustCompile(e.args[0]))
		return strconv.Itoa(n), compare(strconv.Itoa(n), e.op, e.value), nil
	}
	conn := env.Sessions().Get(env.Session()).Untraced()
	defer conn.Close()
	r, err := conn.Do(ctx, e.args)
	if err != nil {
		return "", false, env.ConnFailed(ctx, env.Sessions().Target, err)
	}
	got := record.RawText(r)
	return strconv.Quote(got), compare(got, e.op, e.value), nil
}

// findingKinds is the kinds of finding in a verdict.
func findingKinds(findings []check.Finding) []check.Kind {
	var kinds []check.Kind
	for _, f := range findings {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	return kinds
}

func kindStrings(kinds []check.Kind) []string {
	if len(kinds) == 0 {
		return []string{"(none)"}
	}
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

// compare compares as numbers when both sides are numbers, else as text.
func compare(got, op, want string) bool {
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
