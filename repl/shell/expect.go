package shell

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/resp"
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

// parseExpect reads expect's arguments; the error says what is wrong.
func parseExpect(args []string) (expectation, error) {
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
func (s *Shell) expect(ctx context.Context, hc interp.HandlerContext, args []string) error {
	s.mu.Lock()
	s.expects++
	s.mu.Unlock()
	e, err := parseExpect(args[1:])
	if err != nil {
		s.expectFailed(ctx, hc, err.Error())
		return interp.ExitStatus(2)
	}
	got, ok, err := s.evaluate(ctx, hc, e)
	if err != nil {
		return err
	}
	if !ok {
		s.expectFailed(ctx, hc, fmt.Sprintf("expected %s, got %s", e, got))
		return interp.ExitStatus(1)
	}
	return nil
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
func (s *Shell) evaluate(ctx context.Context, hc interp.HandlerContext, e expectation) (string, bool, error) {
	switch e.kind {
	case "verdict", "no":
		kinds := s.findingKinds(ctx)
		has := slices.Contains(kinds, check.Kind(e.value))
		return "verdict " + strings.Join(kindStrings(kinds), ", "), has == (e.kind == "verdict"), nil
	case "reply":
		got := s.lastReply(sessionOf(ctx, hc))
		return strconv.Quote(got), compare(got, e.op, e.value), nil
	case "lines":
		n := s.output.count(regexp.MustCompile(e.args[0]))
		return strconv.Itoa(n), compare(strconv.Itoa(n), e.op, e.value), nil
	}
	conn := s.cfg.Sessions.Get(sessionOf(ctx, hc)).Untraced()
	defer conn.Close()
	r, err := conn.Do(ctx, e.args)
	if err != nil {
		return "", false, s.connFailed(ctx, hc, s.cfg.Sessions.Target, err)
	}
	got := rawText(r)
	return strconv.Quote(got), compare(got, e.op, e.value), nil
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

// rawText is a reply as redis-cli prints it on a pipe, without the final
// newline: what $(...) would capture.
func rawText(r resp.Reply) string { return strings.TrimSuffix(resp.FormatRaw(r), "\n") }

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

type fileKey struct{}

// lineKey carries the input line an entry starts on (piped input).
type lineKey struct{}

// expectFailed prints FILE:LINE:COL: msg and counts the failure.
func (s *Shell) expectFailed(ctx context.Context, hc interp.HandlerContext, msg string) {
	s.mu.Lock()
	s.failed++
	s.mu.Unlock()
	line, _ := ctx.Value(lineKey{}).(int)
	pos := fmt.Sprintf("%d:%d", int(hc.Pos.Line())+max(line-1, 0), hc.Pos.Col())
	if name, _ := ctx.Value(fileKey{}).(string); name != "" {
		pos = name + ":" + pos
	}
	fmt.Fprintf(s.errOut, "%s: %s\n", pos, msg)
}

// lastReply is the raw text of the last reply session printed; for main
// (a script's own lines), of the last reply printed by any session, so
// that `@A SET ...` then `expect reply OK` reads as it looks.
func (s *Shell) lastReply(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == session.Main {
		return s.replies[anySession]
	}
	return s.replies[name]
}

// anySession keys the last reply printed by any session.
const anySession = "\x00any"

func (s *Shell) noteReply(name string, r resp.Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies[name] = rawText(r)
	s.replies[anySession] = s.replies[name]
}
