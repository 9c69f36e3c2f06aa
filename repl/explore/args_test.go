package explore

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestParseCommand: flags go before or after the file; after `--` every
// word is the script's.
func TestParseCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		file string
		rest []string
		raw  bool
	}{
		{[]string{"--no-reduce", "a.lab", "x"}, "a.lab", []string{"x"}, true},
		{[]string{"a.lab", "--no-reduce", "x"}, "a.lab", []string{"x"}, true},
		{[]string{"a.lab", "x", "--", "--no-reduce"}, "a.lab", []string{"x", "--no-reduce"}, false},
		{[]string{"--", "a.lab", "--no-reduce"}, "a.lab", []string{"--no-reduce"}, false},
	} {
		got, err := ParseCommand(c.args)
		if err != nil || got.File != c.file || !slices.Equal(got.Args, c.rest) || got.Raw != c.raw {
			t.Errorf("%q: file %q args %q raw %v (%v); want %q %q %v", c.args, got.File, got.Args, got.Raw, err, c.file, c.rest, c.raw)
		}
	}
	for _, bad := range [][]string{{}, {"--bogus", "a.lab"}, {"--random", "-1", "a.lab"}, {"--replay", "x", "a.lab"}, {"--save", "a.txt", "a.lab"}} {
		if _, err := ParseCommand(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestBadFlags refuses flags that count nothing, instead of quietly
// running the default search: before, --random 0, --replay "" and
// negative bounds each ran the whole reduced search.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--random", "0"}, {"--random", "-1"}, {"--choices", ""}, {"--choices", "0,x"}, {"--replay", "-1"},
		{"--max-schedules", "-5"}, {"--max-steps", "-1"}, {"--max-schedules", "0"}, {"--max-steps", "0"}, {"--replay", "0"},
	} {
		if _, err := ParseCommand(append(args, "two-bidders.lab")); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	if c, err := ParseCommand([]string{"x.lab", "--max-schedules", "9"}); err != nil || c.Schedules != 9 {
		t.Errorf("a flag after the script: %v, %v", c.Schedules, err)
	}
	if c, err := ParseCommand([]string{"--", "x.lab", "--json", "-x"}); err != nil || len(c.Args) != 2 {
		t.Errorf("-- x.lab --json -x: %v, %v", c.Args, err)
	}
	c, err := ParseCommand([]string{"--choices", "0,1", "--max-steps", "50", "x.lab"})
	if err != nil || len(c.Choices) != 2 {
		t.Errorf("--choices 0,1: %v, %v", c.Choices, err)
	}
}

// TestReplayMisfit refuses a choice list that is not one of the search's
// (a pick past its choice point's options, or too many picks), instead
// of quietly replaying another schedule.
func TestReplayMisfit(t *testing.T) {
	sc := script(t, "testdata/two-bidders.lab")
	for _, tc := range []struct {
		choices []int
		want    string
	}{
		{[]int{5}, "choice 1 is 5, but only 2 commands could go there"},
		{[]int{0, 3, 1}, "choice 2 is 3, but only 2 commands could go there"},
		{[]int{0, 1, 1, 1, 1}, "5 choices, but this schedule has 3 choice points"},
	} {
		_, err := Replay(context.Background(), sc, Options{}, tc.choices, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.choices, err, tc.want)
		}
	}
	for _, choices := range [][]int{{}, {1}, {0, 1, 1}} {
		if _, err := Replay(context.Background(), sc, Options{}, choices, 0); err != nil {
			t.Errorf("%v: %v", choices, err)
		}
	}
}

// TestSummaryOne says "1 schedule", not "1 schedules".
func TestSummaryOne(t *testing.T) {
	r := &Result{Schedules: 1, Complete: true, Mode: "reduced", Groups: map[string]int{allClear: 1}}
	if got, want := r.Summary(), "explored 1 schedule (complete, reduced): 1 all clear"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
