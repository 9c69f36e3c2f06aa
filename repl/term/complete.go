package term

import (
	"cmp"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// maxKeys bounds the keys remembered for completion (iredis keeps 300).
const maxKeys = 500

// Completer completes command names (Redis's and the lab's), container
// subcommands (CLIENT SETNAME), and keys seen in commands and replies.
type Completer struct {
	mu       sync.Mutex
	keys     map[string]struct{}
	sessions map[string]struct{}    // the sessions seen, for @NAME
	lacks    func(name string) bool // the server's gaps (nil: none)
}

// NewCompleter makes a completer with no keys yet; feed it with Observe.
// lacks names the commands the server lacks (gaps.Embedded on the
// embedded Redis, nil elsewhere): completion leaves them out, and the
// hint says why when one is typed.
func NewCompleter(lacks func(name string) bool) *Completer {
	return &Completer{keys: map[string]struct{}{}, sessions: map[string]struct{}{}, lacks: lacks}
}

// Observe learns keys from one command and its reply.
func (c *Completer) Observe(e session.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.Session != "" && e.Session != session.Main && len(c.sessions) < maxKeys {
		c.sessions[e.Session] = struct{}{}
	}
	for _, k := range keysOf(e) {
		if len(c.keys) >= maxKeys {
			for old := range c.keys { // forget one: any will do
				delete(c.keys, old)
				break
			}
		}
		c.keys[k] = struct{}{}
	}
}

// keysOf lists the keys a command named, and those a KEYS or SCAN listed.
func keysOf(e session.Event) []string {
	out := commands.Keys(e.Args)
	if name := strings.ToUpper(e.Args[0]); name == "KEYS" || name == "SCAN" {
		out = append(out, bulkStrings(e.Reply)...)
	}
	return out
}

func bulkStrings(r resp.Reply) []string {
	if r.Kind == resp.Bulk {
		return []string{r.Str}
	}
	var out []string
	for _, e := range r.Elems {
		out = append(out, bulkStrings(e)...)
	}
	return out
}

// Do is readline's completion callback: the candidates' remaining runes
// for the word under the cursor, and that word's length.
func (c *Completer) Do(line []rune, pos int) ([][]rune, int) {
	cmd, partial := splitForCompletion(string(line[:pos]))
	if len(cmd) > 0 && strings.HasPrefix(cmd[0], "@") {
		cmd = cmd[1:] // @NAME COMMAND: the command is completed as at the prompt
	}
	var cands []string
	spec := labSpec(cmd)
	switch {
	case len(cmd) == 0 && strings.HasPrefix(partial, "@"):
		cands = c.matchSessions(partial)
	case len(cmd) == 0:
		cands = matchCase(partial, append(c.has("", commands.Names()), words.Names()...))
	case takesScript(cmd) && !strings.HasPrefix(partial, "-"):
		cands = scriptPaths(partial)
	case spec != nil:
		if cands = spec.Complete(cmd[1:], partial); cands == nil {
			cands = c.matchKeys(partial)
		}
	case len(cmd) == 1 && len(commands.SubNames(cmd[0])) > 0:
		cands = matchCase(partial, c.has(strings.ToUpper(cmd[0])+" ", commands.SubNames(cmd[0])))
	default:
		cands = c.matchKeys(partial)
	}
	out := make([][]rune, len(cands))
	for i, cand := range cands {
		out[i] = []rune(cand[len(partial):])
		if !strings.HasSuffix(cand, "/") { // a folder goes on
			out[i] = append(out[i], ' ')
		}
	}
	return out, len([]rune(partial))
}

// labSpec is the arguments' spec of the lab word cmd starts with (book,
// redlock, load ...), or nil for a Redis command or a word without one.
func labSpec(cmd []string) *flags.Spec {
	if len(cmd) == 0 {
		return nil
	}
	if c := words.Classify(cmd, words.Lang); c.Word != nil && (c.Kind == words.Lab || c.Kind == words.Macro) {
		return c.Word.Spec
	}
	return nil
}

// has is the names the server has: names, less those whose prefix+name
// it lacks.
func (c *Completer) has(prefix string, names []string) []string {
	if c.lacks == nil {
		return names
	}
	var out []string
	for _, n := range names {
		if !c.lacks(prefix + n) {
			out = append(out, n)
		}
	}
	return out
}

func (c *Completer) matchKeys(partial string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.keys {
		if strings.HasPrefix(k, partial) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// matchCase returns the names that start with partial, ignoring case, in
// the case the user is typing in (redis-cli users type `get` as often as
// `GET`).
func matchCase(partial string, names []string) []string {
	lower := partial != "" && !strings.ContainsFunc(partial, unicode.IsUpper)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(partial)) {
			if lower {
				n = strings.ToLower(n)
			}
			out = append(out, partial+n[len(partial):])
		}
	}
	sort.Strings(out)
	return out
}

// splitForCompletion splits the text before the cursor into the words of
// the command being typed (after the last ;, &&, |, & or $( and past any
// `@NAME`, `redis-cli [flags]` or `docker exec ... redis-cli [flags]`
// prefix) and the partial word under the cursor.
func splitForCompletion(text string) (cmd []string, partial string) {
	if i := strings.LastIndexAny(text, ";|&("); i >= 0 {
		text = text[i+1:]
	}
	fields := strings.Fields(text)
	if len(fields) > 0 && !strings.HasSuffix(text, " ") {
		partial, fields = fields[len(fields)-1], fields[:len(fields)-1]
	}
	return RedisPart(fields), partial
}

// Hint is the grey hint for a line being typed: for a command the server
// lacks, that it does; else, as redis-cli shows, what is still to type.
func (c *Completer) Hint(line string) string {
	if c.lacks != nil {
		cmd, partial := splitForCompletion(line)
		if found, _ := commands.Lookup(append(cmd, partial)); found != nil && c.lacks(found.Name) {
			return "(the embedded Redis lacks " + found.Name + ": -p PORT runs it on redis-server)"
		}
	}
	return Hint(line)
}

// Hint is the grey argument hint for a line being typed, as redis-cli
// shows: what is still to type for the command.
func Hint(line string) string {
	cmd, partial := splitForCompletion(line)
	if partial != "" && len(cmd) > 0 {
		return "" // in the middle of an argument: nothing useful to add yet
	}
	if spec := labSpec(cmd); spec != nil && partial == "" {
		return spec.Hint(cmd[1:]) // a lab word: what its spec still takes
	}
	if partial != "" {
		cmd = append(cmd, partial)
	}
	if len(cmd) == 0 {
		return ""
	}
	return commands.Hint(cmd, strings.HasSuffix(line, " "))
}

// matchSessions are the sessions seen whose @NAME starts with partial.
func (c *Completer) matchSessions(partial string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for s := range c.sessions {
		if at := "@" + s; strings.HasPrefix(at, partial) && !strings.ContainsAny(s, " \t") {
			out = append(out, at)
		}
	}
	sort.Strings(out)
	return out
}

// takesScript reports whether cmd is a word that runs a script file (run,
// source, bash ..., explore, whose other words its spec completes).
func takesScript(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	w := words.Find(cmd[0])
	return w != nil && (w.Kind == words.Script || w.Name == "explore")
}

// scriptPaths are the .lab and .sh files, and the folders, whose path
// starts with partial (relative to the folder locklab started in).
func scriptPaths(partial string) []string {
	dir, base := filepath.Split(partial)
	entries, err := os.ReadDir(cmp.Or(dir, "."))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, "."):
		case e.IsDir():
			out = append(out, dir+name+"/")
		case filepath.Ext(name) == ".lab" || filepath.Ext(name) == ".sh":
			out = append(out, dir+name)
		}
	}
	return out
}
