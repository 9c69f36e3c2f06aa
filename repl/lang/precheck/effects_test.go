package precheck

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/lang/words"
)

// testWords are two words with effects: `nodes KIND` sets "nodes" to
// KIND (Unsure when KIND is known only at run time), and `jump` cannot
// run while "nodes" is "real".
var testWords = []words.Word{
	{Name: "nodes", Kind: words.Lab, Effects: func(args []string, known []bool) []words.Effect {
		if len(args) == 0 || !known[0] {
			return []words.Effect{{Key: "nodes", Set: words.Unsure}}
		}
		return []words.Effect{{Key: "nodes", Set: args[0]}}
	}},
	{Name: "jump", Kind: words.Lab, Effects: func([]string, []bool) []words.Effect {
		return []words.Effect{{Key: "nodes", Refuse: "real", Why: "jump: not on real nodes: use embedded ones"}}
	}},
}

func TestServers(t *testing.T) {
	words.Install(testWords)
	t.Cleanup(func() { words.Install() })
	cases := []struct {
		script string
		args   []string
		want   string // the error, "" for none
	}{
		{"nodes real\njump", nil, "x.lab:2:1: jump: not on real nodes: use embedded ones (since line 1: nodes real)"},
		{"nodes embedded\njump", nil, ""},
		{"jump\nnodes real", nil, ""}, // nothing set yet
		{"nodes real\nnodes embedded\njump", nil, ""},
		{`nodes "$@"` + "\njump", []string{"real"}, "x.lab:2:1: jump: not on real nodes: use embedded ones (since line 1: nodes real)"},
		{`nodes "$@"` + "\njump", nil, ""}, // nodes alone: Unsure
		{"nodes $1\njump", []string{"real"}, "(since line 1: nodes real)"},
		{`nodes "$2"` + "\njump", []string{"real"}, ""}, // "": not real
		{"nodes $*\njump", []string{"real"}, ""},        // $* is not read: Unsure
		{"nodes real\n@alice jump", nil, "x.lab:2:1: jump:"},
		{"nodes real\necho hi; PING\njump", nil, "x.lab:3:1: jump:"},
		// What may or may not run makes what it sets unknown, and is not
		// refused itself.
		{"nodes real\nif true; then jump; fi", nil, ""},
		{"nodes embedded\nif true; then nodes real; fi\njump", nil, ""},
		{"nodes real\nnodes embedded &\njump", nil, ""},
		{"nodes real\ntrue && nodes embedded\njump", nil, ""},
		// A function, a nested script or a word known only at run time
		// may do anything.
		{"f() { nodes embedded; }\nnodes real\nf\njump", nil, ""},
		{"nodes real\nrun other.lab\njump", nil, ""},
		{"nodes real\n./other.lab\njump", nil, ""},
		{"nodes real\n$cmd embedded\njump", nil, ""},
		{"nodes real\nif true; then $cmd; fi\njump", nil, ""},
		// ... while a statement that sets nothing keeps what is known.
		{"nodes real\nif true; then echo hi; fi\njump", nil, "x.lab:3:1: jump:"},
	}
	for _, c := range cases {
		f, err := syntax.NewParser().Parse(strings.NewReader(c.script), "x.lab")
		if err != nil {
			t.Fatal(err)
		}
		err = Servers(f, "x.lab", c.args)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q %q: refused: %v", c.script, c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q %q: %v, want %q", c.script, c.args, err, c.want)
		}
	}
}
