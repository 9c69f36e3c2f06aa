package explore

import (
	"slices"
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
