package flags

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bookLocked is a spec shaped as the lab's book-locked.
var bookLocked = &Spec{Name: "book-locked",
	Args: []Arg{{Name: "BIDDER"}, {Name: "TOKEN"}},
	Flags: []Flag{
		{Name: "lock", Kind: String, Value: "KEY", Default: "lock:x"},
		{Name: "ttl", Kind: Duration, Default: "5s", MinDur: time.Millisecond},
		{Name: "work", Kind: Duration, Default: "300ms"},
		{Name: "watchdog", Kind: Bool},
		{Name: "release", Kind: Enum, Choices: []string{"get-del", "eval", "blind"}, Default: "eval"},
		{Name: "seats", Kind: Int, Min: 1, Default: "1"},
	}}

// bookLockedUsage is the hint of book-locked's errors but a typo's.
var bookLockedUsage = " (usage: " + bookLocked.Usage() + ")"

var redlock = &Spec{Name: "redlock", Subs: []*Spec{
	{Name: "redlock up", Flags: []Flag{{Name: "nodes", Kind: Int, Min: 1, Default: "5"}, {Name: "real", Kind: Bool}}},
	{Name: "redlock down"},
	{Name: "redlock status", Args: []Arg{{Name: "KEY", Optional: true}}},
}}

var load = &Spec{Name: "load",
	Flags: []Flag{{Name: "workers", Kind: Int, Min: 1, Default: "10"}},
	Forms: []*Spec{{Name: "load", Flags: []Flag{{Name: "redlock", Kind: Int, Min: 1, Required: true}, {Name: "seed", Kind: Int}}}}}

var explore = &Spec{Name: "explore", FlagsFirst: true,
	Args:  []Arg{{Name: "FILE.lab"}, {Name: "ARG", Optional: true, Many: true}},
	Flags: []Flag{{Name: "no-reduce", Kind: Bool}, {Name: "seed", Kind: Int, Default: "1"}}}

var pause = &Spec{Name: "pause", Args: []Arg{{Name: "SESSION"}, {Name: "DUR", Kind: Duration}}}

// TestParse: what each call reads, or its one-line error, word for word.
func TestParse(t *testing.T) {
	tests := []struct {
		spec *Spec
		args string
		want string // the args and flags read, or the error
	}{
		{bookLocked, "alice t1", "[alice t1] ttl=5s work=300ms watchdog=false release=eval seats=1"},
		{bookLocked, "alice --ttl 2s t1 --watchdog", "[alice t1] ttl=2s work=300ms watchdog=true release=eval seats=1"},
		{bookLocked, "--release=blind alice t1 --seats=3", "[alice t1] ttl=5s work=300ms watchdog=false release=blind seats=3"},
		{bookLocked, "alice -- --t1", "[alice --t1] ttl=5s work=300ms watchdog=false release=eval seats=1"},
		{bookLocked, "alice t1 --wrk 1s", "book-locked: unknown flag --wrk (did you mean --work?)"},
		{bookLocked, "alice t1 --zzzzzz 1s", "book-locked: unknown flag --zzzzzz" + bookLockedUsage},
		{bookLocked, "alice t1 --ttl abc", `book-locked: --ttl needs a duration of at least 1ms, such as 5s or 300ms, got "abc"` + bookLockedUsage},
		{bookLocked, "alice t1 --work 300", "book-locked: --work 300: 300 needs a unit: 300s or 300ms" + bookLockedUsage},
		{bookLocked, "alice t1 --work", "book-locked: --work needs a duration such as 5s or 300ms, got nothing" + bookLockedUsage},
		{bookLocked, "alice t1 --work --watchdog", "book-locked: --work needs a duration such as 5s or 300ms, got nothing" + bookLockedUsage},
		{bookLocked, "alice t1 --release maybe", `book-locked: --release needs one of get-del, eval, blind, got "maybe"` + bookLockedUsage},
		{bookLocked, "alice t1 --seats 0", `book-locked: --seats needs a whole number, 1 or more, got "0"` + bookLockedUsage},
		{bookLocked, "alice t1 --watchdog=yes", "book-locked: --watchdog is a switch: give it alone, not --watchdog=yes" + bookLockedUsage},
		{bookLocked, "alice t1 --ttl 1s --ttl 2s", "book-locked: --ttl given twice: give it once" + bookLockedUsage},
		{bookLocked, "alice", "book-locked: missing TOKEN" + bookLockedUsage},
		{bookLocked, "", "book-locked: missing BIDDER TOKEN" + bookLockedUsage},
		{bookLocked, "alice t1 extra", `book-locked: unexpected argument "extra"` + bookLockedUsage},
		{redlock, "up --nodes 3", "up [] nodes=3 real=false"},
		{redlock, "status", "status []"},
		{redlock, "status k", "status [k]"},
		{redlock, "", "redlock: missing up|down|status (usage: redlock up [--nodes N] [--real] | down | status [KEY])"},
		{redlock, "upp", `redlock: unknown subcommand "upp" (did you mean up?)`},
		{redlock, "frobnicate", `redlock: unknown subcommand "frobnicate" (usage: redlock up [--nodes N] [--real] | down | status [KEY])`},
		{redlock, "down now", `redlock down: unexpected argument "now" (usage: redlock down)`},
		{load, "--workers 3", "[] workers=3"},
		{load, "--redlock 3 --seed 7", "[] redlock=3 seed=7"},
		{load, "--seed 7", "load: unknown flag --seed (usage: load [--workers N] | load --redlock N [--seed N])"},
		{explore, "x.lab --no-reduce a b", "[x.lab a b] no-reduce=true seed=1"},
		{explore, "--seed 3 x.lab -- --no-reduce", "[x.lab --no-reduce] no-reduce=false seed=3"},
		{explore, "", "explore: missing FILE.lab (usage: explore [--no-reduce] [--seed N] FILE.lab [ARG ...])"},
		{pause, "alice 300", "pause: DUR 300: 300 needs a unit: 300s or 300ms (usage: pause SESSION DUR)"},
		{pause, "alice soon", `pause: DUR needs a duration such as 5s or 300ms, got "soon" (usage: pause SESSION DUR)`},
		{pause, "alice -1s", `pause: DUR needs a duration such as 5s or 300ms, got "-1s" (usage: pause SESSION DUR)`},
		{pause, "alice 1s", "[alice 1s]"},
	}
	for _, tt := range tests {
		got := describe(tt.spec.Parse(strings.Fields(tt.args)))
		if got != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.spec.Name, tt.args, got, tt.want)
		}
	}
}

// describe is what Parse read, in one line: the subcommand, the
// positional arguments and every flag's value, in the spec's order.
func describe(p *Parsed, err error) string {
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	if p.Sub != "" {
		b.WriteString(p.Sub + " ")
	}
	b.WriteString("[" + strings.Join(p.Args, " ") + "]")
	for _, f := range p.Spec.Flags {
		if f.Kind == String && !p.Given(f.Name) {
			continue
		}
		b.WriteString(" " + f.Name + "=")
		switch f.Kind {
		case Bool:
			b.WriteString(map[bool]string{true: "true", false: "false"}[p.Bool(f.Name)])
		case Int:
			b.WriteString(strconv.FormatInt(p.Int(f.Name), 10))
		case Duration:
			b.WriteString(p.Duration(f.Name).String())
		default:
			b.WriteString(p.String(f.Name))
		}
	}
	return b.String()
}

// TestUsage: the usage lines the specs write.
func TestUsage(t *testing.T) {
	for spec, want := range map[*Spec]string{
		bookLocked: "book-locked BIDDER TOKEN [--lock KEY] [--ttl DUR] [--work DUR] [--watchdog] [--release get-del|eval|blind] [--seats N]",
		redlock:    "redlock up [--nodes N] [--real] | down | status [KEY]",
		load:       "load [--workers N] | load --redlock N [--seed N]",
		explore:    "explore [--no-reduce] [--seed N] FILE.lab [ARG ...]",
	} {
		if got := spec.Usage(); got != want {
			t.Errorf("usage:\n got %s\nwant %s", got, want)
		}
	}
}

// TestCheck: a script's call checked before it runs, with words known
// only at run time ($b) taken as anything.
func TestCheck(t *testing.T) {
	tests := []struct {
		args  string
		known string // one letter per word: k known, u known at run time
		want  string
	}{
		{"alice t1", "kk", ""},
		{"$b $t", "uu", ""},
		{"$args", "u", "book-locked: missing TOKEN" + bookLockedUsage},
		{"$b --slot $s", "ukku", "book-locked: unknown flag --slot" + bookLockedUsage},
		{"$b $t $x", "uuu", "book-locked: unexpected argument (a word known only at run time)" + bookLockedUsage},
		{"$b --wrk 1s", "ukk", "book-locked: unknown flag --wrk (did you mean --work?)"},
		{"$b --ttl abc", "ukk", `book-locked: --ttl needs a duration of at least 1ms, such as 5s or 300ms, got "abc"` + bookLockedUsage},
		{"$b t --ttl $d", "ukku", ""},
		{"$b --wrk $d", "uku", "book-locked: unknown flag --wrk (did you mean --work?)"},
		{"alice", "k", "book-locked: missing TOKEN" + bookLockedUsage},
		{"$b -- --wrk", "ukk", ""},
		{"$b $t --release $r", "uuku", ""},
		{`"$@"`, "u", ""},
		{`--wrk "$@"`, "ku", "book-locked: unknown flag --wrk (did you mean --work?)"},
		{`--ttl "$@"`, "ku", ""},
		{`alice "${args[@]}" --ttl 5`, "kukk", "book-locked: --ttl 5: 5 needs a unit: 5s or 5ms" + bookLockedUsage},
	}
	for _, tt := range tests {
		var known []bool
		for _, c := range tt.known {
			known = append(known, c == 'k')
		}
		err := bookLocked.Check(strings.Fields(tt.args), known)
		if got := errText(err); got != tt.want {
			t.Errorf("check %s:\n got %s\nwant %s", tt.args, got, tt.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestComplete: Tab's candidates from the specs.
func TestComplete(t *testing.T) {
	tests := []struct {
		spec    *Spec
		args    string
		partial string
		want    []string
	}{
		{bookLocked, "alice t1", "--w", []string{"--watchdog", "--work"}},
		{bookLocked, "alice t1 --work 1s", "--w", []string{"--watchdog"}},
		{bookLocked, "alice t1 --release", "", []string{"blind", "eval", "get-del"}},
		{bookLocked, "alice t1 --release", "e", []string{"eval"}},
		{bookLocked, "alice", "", nil},
		{redlock, "", "", []string{"down", "status", "up"}},
		{redlock, "up", "--", []string{"--nodes", "--real"}},
		{load, "", "--", []string{"--redlock", "--seed", "--workers"}},
		{load, "--redlock 3", "--", []string{"--seed"}},
	}
	for _, tt := range tests {
		got := tt.spec.Complete(strings.Fields(tt.args), tt.partial)
		if !slices.Equal(got, tt.want) {
			t.Errorf("complete %s %s|%s = %q, want %q", tt.spec.Name, tt.args, tt.partial, got, tt.want)
		}
	}
}

// TestHint: the grey text after a word and its arguments.
func TestHint(t *testing.T) {
	for args, want := range map[string]string{
		"":                  "BIDDER TOKEN [--lock KEY] [--ttl DUR] [--work DUR] [--watchdog] [--release get-del|eval|blind] [--seats N]",
		"alice":             "TOKEN [--lock KEY] [--ttl DUR] [--work DUR] [--watchdog] [--release get-del|eval|blind] [--seats N]",
		"alice t --ttl 1s":  "[--lock KEY] [--work DUR] [--watchdog] [--release get-del|eval|blind] [--seats N]",
		"alice t --release": "get-del|eval|blind",
	} {
		if got := bookLocked.Hint(strings.Fields(args)); got != want {
			t.Errorf("hint after %q:\n got %s\nwant %s", args, got, want)
		}
	}
}

// oneHint says an error ends with its one hint: the name meant, or the
// usage line.
func oneHint(msg string) bool {
	typo := strings.HasSuffix(msg, "?)") && strings.Count(msg, " (did you mean ") == 1
	usage := strings.HasSuffix(msg, ")") && strings.Count(msg, " (usage: ") == 1
	return typo != usage
}

// TestOneHint: every problem the parser finds ends with one hint, the
// enum's too (before, a bad --release had none).
func TestOneHint(t *testing.T) {
	calls := map[*Spec][]string{
		bookLocked: {"alice t1 --wrk 1s", "alice t1 --zzzzzz 1s", "alice t1 --ttl abc", "alice t1 --work 300", "alice t1 --work",
			"alice t1 --release maybe", "alice t1 --release", "alice t1 --seats 0", "alice t1 --watchdog=yes", "alice t1 --ttl 1s --ttl 2s", "alice", "a b c"},
		redlock: {"", "upp", "frobnicate", "up --nodes x", "up --nods 3", "down now"},
		load:    {"--seed 7", "--redlock", "--redlock 3 --seed x", "--workers=0"},
		pause:   {"alice 300", "alice soon"},
	}
	for spec, list := range calls {
		for _, args := range list {
			_, err := spec.Parse(strings.Fields(args))
			if err == nil || !oneHint(err.Error()) {
				t.Errorf("%s %s: %v, want an error with one hint", spec.Name, args, err)
			}
		}
	}
}

// TestHelpAsked: --help asks for the word's help, or its subcommand's,
// wherever the parser reads a flag; never after -- nor as --flag=--help.
func TestHelpAsked(t *testing.T) {
	tests := []struct {
		spec *Spec
		args string
		want *Spec // nil: no help asked
	}{
		{bookLocked, "--help", bookLocked},
		{bookLocked, "alice --help t1", bookLocked},
		{bookLocked, "alice t1 --work --help", bookLocked}, // a word that starts with -- is no flag's value
		{bookLocked, "alice t1 --wrk 1s --help", bookLocked},
		{bookLocked, "alice t1 --lock=--help", nil},
		{bookLocked, "alice -- --help", nil},
		{bookLocked, "alice t1 --help=yes", nil},
		{bookLocked, "", nil},
		{redlock, "--help", redlock},
		{redlock, "up --help", redlock.Sub("up")},
		{redlock, "status k --help", redlock.Sub("status")},
		{redlock, "upp --help", redlock},
		{redlock, "status -- --help", nil},
		{load, "--redlock 3 --help", load}, // the word's help, all forms
		{explore, "x.lab --help", explore},
		{explore, "x.lab -- --help", nil},
	}
	for _, tt := range tests {
		if got := tt.spec.HelpAsked(strings.Fields(tt.args)); got != tt.want {
			t.Errorf("%s %s: help of %v, want %v", tt.spec.Name, tt.args, specName(got), specName(tt.want))
		}
	}
}

func specName(s *Spec) string {
	if s == nil {
		return "none"
	}
	return s.Name
}
