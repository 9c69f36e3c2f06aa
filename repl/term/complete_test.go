package term

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/cli/gaps"
	"github.com/locklab/locklab/repl/cli/session"
)

// completions is what Tab offers after line, whole words.
func completions(c *Completer, line string) []string {
	cands, n := c.Do([]rune(line), len([]rune(line)))
	word := line[len(line)-n:]
	var out []string
	for _, cand := range cands {
		out = append(out, strings.TrimSpace(word+string(cand)))
	}
	return out
}

// TestCompleteEmbeddedGaps: on the embedded Redis, Tab leaves out what it
// lacks (CONFIG, DEBUG, CLIENT LIST, OBJECT ENCODING) and still offers
// what it has. On a real server (no lacks) everything is offered.
func TestCompleteEmbeddedGaps(t *testing.T) {
	embedded, real := NewCompleter(gaps.Embedded), NewCompleter(nil)
	tests := []struct {
		line       string
		has, lacks []string
	}{
		{"CON", []string{"CONFIG"}, nil},
		{"DEB", []string{"DEBUG"}, nil},
		{"CLIENT ", []string{"LIST", "KILL", "PAUSE"}, []string{"SETNAME", "GETNAME"}},
		{"OBJECT ", []string{"ENCODING"}, []string{"IDLETIME"}},
		{"ex", nil, []string{"exists", "expect"}},
	}
	for _, tt := range tests {
		got, all := completions(embedded, tt.line), completions(real, tt.line)
		for _, name := range tt.has {
			if slices.Contains(got, name) {
				t.Errorf("embedded: %q offers %s, which it lacks: %q", tt.line, name, got)
			}
			if !slices.Contains(all, name) {
				t.Errorf("real server: %q does not offer %s: %q", tt.line, name, all)
			}
		}
		for _, name := range tt.lacks {
			if !slices.Contains(got, name) {
				t.Errorf("embedded: %q does not offer %s: %q", tt.line, name, got)
			}
		}
	}
}

// TestHintEmbeddedGaps: on the embedded Redis, the grey hint for a
// command it lacks says so; for others, and on a real server, it shows
// the arguments still to type.
func TestHintEmbeddedGaps(t *testing.T) {
	embedded, real := NewCompleter(gaps.Embedded), NewCompleter(nil)
	for line, want := range map[string]string{
		"CONFIG GET ":     "(the embedded Redis lacks CONFIG GET: -p PORT runs it on redis-server)",
		"client list":     "(the embedded Redis lacks CLIENT LIST: -p PORT runs it on redis-server)",
		"@bob DEBUG ":     "(the embedded Redis lacks DEBUG: -p PORT runs it on redis-server)",
		"GET ":            "key",
		"CLIENT SETNAME ": "connection-name",
	} {
		if got := embedded.Hint(line); got != want {
			t.Errorf("embedded hint for %q = %q, want %q", line, got, want)
		}
	}
	if got := real.Hint("CONFIG GET "); !strings.Contains(got, "parameter") {
		t.Errorf("real server: hint for CONFIG GET = %q, want its arguments", got)
	}
}

// TestCompleteLabWords: Tab after a lab word offers what its flag spec
// says: its flags after --, an enum flag's choices, its subcommands; the
// grey hint shows what it still takes.
func TestCompleteLabWords(t *testing.T) {
	c := NewCompleter(nil)
	c.Observe(session.Event{Args: []string{"SET", "lock:x", "t"}})
	tests := []struct {
		line string
		want []string
	}{
		{"book-locked alice t --w", []string{"--wait", "--watchdog", "--work"}},
		{"book-locked alice t --release ", []string{"blind", "eval", "get-del"}},
		{"@bob book-locked alice t --release e", []string{"eval"}},
		{"blind-unlock --release ", []string{"blind", "eval"}},
		{"redlock ", []string{"acquire", "down", "release", "status", "up", "verdict"}},
		{"redlock up --", []string{"--client", "--nodes", "--real"}},
		{"redlock up --client ", []string{"locklab", "redsync"}},
		{"load --mode ", []string{"break", "extend", "fenced", "fix"}},
		{"load --redlock 3 --cl", []string{"--client", "--clock-jump"}},
		{"explore --no-r", []string{"--no-reduce"}},
		{"eval-release lock:", []string{"lock:x"}},
	}
	for _, tt := range tests {
		if got := completions(c, tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("Tab after %q = %q, want %q", tt.line, got, tt.want)
		}
	}
	for line, want := range map[string]string{
		"book ":                   "BIDDER [--slot KEY] [--seats N] [--work DUR]",
		"book alice --work 1s ":   "[--slot KEY] [--seats N]",
		"book-locked a t --ttl ":  "DUR",
		"redlock acquire ":        "KEY TOKEN [--ttl DUR] [--drift F] [--timeout DUR]",
		"book-locked alice --wor": "",
	} {
		if got := Hint(line); got != want {
			t.Errorf("hint after %q = %q, want %q", line, got, want)
		}
	}
}

// TestCompleteSessionsAndScripts: @ offers the sessions seen, a word that
// runs a script offers .lab and .sh files and folders.
func TestCompleteSessionsAndScripts(t *testing.T) {
	c := NewCompleter(nil)
	c.Observe(session.Event{Session: "alice", Args: []string{"GET", "k"}})
	c.Observe(session.Event{Session: "albert", Args: []string{"GET", "k"}})
	c.Observe(session.Event{Session: session.Main, Args: []string{"GET", "k"}})
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"race.lab", "run.sh", "notes.txt", "labs/x.lab"} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, nil, 0o644)
	}
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"@al", []string{"@albert", "@alice"}},
		{"@", []string{"@albert", "@alice"}},
		{"@alice GETD", []string{"GETDEL"}},
		{"run r", []string{"race.lab", "run.sh"}},
		{"explore ", []string{"labs/", "race.lab", "run.sh"}},
		{"source labs/", []string{"labs/x.lab"}},
	} {
		if got := completions(c, tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("Tab after %q = %q, want %q", tt.line, got, tt.want)
		}
	}
}
