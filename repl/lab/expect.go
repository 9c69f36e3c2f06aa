package lab

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/expect"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/words"
)

// expect runs one expect.Expectation and reports a failure at its position.
func expectWord(ctx context.Context, env words.Env, args []string) error {
	e, err := expect.Parse(args[1:])
	if err != nil {
		return expectFailed(env, err.Error(), 2)
	}
	got, ok, err := evaluate(ctx, env, e)
	if err != nil && (ctx.Err() == nil || errors.Is(context.Cause(ctx), words.ErrServerDown)) {
		return expectFailed(env, fmt.Sprintf("expected %s, got no reply (see above)", e), 1)
	}
	if err != nil {
		recorderOf(env).Expected(false)
		return err
	}
	if !ok {
		return expectFailed(env, fmt.Sprintf("expected %s, got %s", e, got), 1)
	}
	recorderOf(env).Expected(true)
	return nil
}

// expectFailed counts a failed expectation and reports it as
// FILE:LINE:COL: msg.
func expectFailed(env words.Env, msg string, status int) error {
	recorderOf(env).Expected(false)
	return &words.Error{Status: status, Msg: env.Position() + ": " + msg, Bare: true}
}

// evaluate checks e and says what was found.
func evaluate(ctx context.Context, env words.Env, e expect.Expectation) (string, bool, error) {
	switch e.Kind {
	case "verdict", "no":
		kinds := findingKinds(findings(ctx, env))
		has := slices.Contains(kinds, check.Kind(e.Value))
		return "verdict " + strings.Join(kindStrings(kinds), ", "), has == (e.Kind == "verdict"), nil
	case "reply":
		got := recorderOf(env).LastReply(env.Session())
		return strconv.Quote(got), expect.Compare(got, e.Op, e.Value), nil
	case "lines":
		n := env.Output().Count(regexp.MustCompile(e.Args[0]))
		return strconv.Itoa(n), expect.Compare(strconv.Itoa(n), e.Op, e.Value), nil
	}
	conn := env.Sessions().Get(env.Session()).Untraced()
	defer conn.Close()
	r, err := conn.Do(ctx, e.Args)
	if err != nil {
		return "", false, env.ConnFailed(ctx, env.Sessions().Target, err)
	}
	got := record.RawText(r)
	return strconv.Quote(got), expect.Compare(got, e.Op, e.Value), nil
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
