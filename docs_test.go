package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestDocsExamplesRun checks that every command README.md and docs/*.md
// show is run by a testscript of testdata/script, which checks what it
// prints. The convention (docs/README.md):
//
//   - In a ```sh block every line is a command (a trailing `# ...` is a
//     comment; a line ending in \ goes on). In a ```console block, a line
//     starting with `$ ` is a command and the lines under it its output.
//     Other blocks (```text, a bare ```) are output or reference, and may
//     not show a command of locklab's: `go run .` or `locklab` there is an
//     error, so that no example hides from this test.
//   - A testscript runs a command under a comment line naming it as the
//     docs show it (`# go run . scripts/lesson.sh`), spaces and trailing
//     comment aside. The first line after it that is not a comment, a
//     blank, or a set-up (stdin, cd, env, cp, mkdir) must run it (exec,
//     tty, or grep for a grep), and a check of its output (stdout,
//     stderr, cmp, grep, exists) must follow before the next run.
//   - When the docs run locklab (`go run . ARGS`, `locklab ARGS`) with
//     one plain command, the exec must run locklab with those words in
//     that order (others may come between): scripts/X may be $SCRIPTS/X,
//     6379 may be $REDIS_PORT, a word with a space may be part of a longer
//     one (a -c line the script extends), and a file of the repository
//     may be a copy of it in the script's archive, under its base name.
//
// A few commands cannot run inside a testscript; docsNotRun says which,
// and why.
func TestDocsExamplesRun(t *testing.T) {
	cmds, errs := docCommands(t, docFiles(t))
	for _, err := range errs {
		t.Error(err)
	}
	runs := scriptRuns(t)
	var exempt, ran int
	for _, c := range cmds {
		if why := notRun(c.text); why != "" {
			t.Logf("%s: not run by a testscript (%s): %s", c.where, why, c.text)
			exempt++
			continue
		}
		found := runs[normalize(c.text)]
		if len(found) == 0 {
			t.Errorf("%s: no testscript runs this example: %s\n\t(add `# %s` and the exec that runs it to a testdata/script/*.txtar)", c.where, c.text, normalize(c.text))
			continue
		}
		var problems []string
		for _, r := range found {
			if err := r.check(c); err != nil {
				problems = append(problems, err.Error())
			}
		}
		if len(problems) == len(found) {
			t.Errorf("%s: %s\n\t%s", c.where, c.text, strings.Join(problems, "\n\t"))
			continue
		}
		ran++
	}
	t.Logf("%d commands shown, %d run by a testscript, %d not run (docsNotRun)", len(cmds), ran, exempt)
}

// docsNotRun are the commands the docs show that no testscript can run,
// by their first words.
var docsNotRun = []struct{ prefix, why string }{
	{"go test ", "the tests themselves: a testscript cannot run the suite it is part of"},
	{"go list ", "the go command on the repository, which a testscript's folder is not; TestHouseFigures reads the same"},
	{"bash .ci/run", "CI itself, which runs the tests"},
	{"docker ", "it needs Docker; the tests start their own redis-server"},
	{"bench/", "a benchmark: minutes of CPU, figures rather than checks"},
}

func notRun(cmd string) string {
	for _, n := range docsNotRun {
		if strings.HasPrefix(cmd, n.prefix) {
			return n.why
		}
	}
	return ""
}

func docFiles(t *testing.T) []string {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

// docCommand is a command a doc shows: its text and where.
type docCommand struct {
	text, where string
}

func docCommands(t *testing.T, files []string) ([]docCommand, []error) {
	var cmds []docCommand
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, e := commandsIn(f, string(data))
		cmds, errs = append(cmds, c...), append(errs, e...)
	}
	return cmds, errs
}

// commandsIn reads the commands of one markdown file's fenced blocks.
func commandsIn(name, doc string) ([]docCommand, []error) {
	var cmds []docCommand
	var errs []error
	lines := strings.Split(doc, "\n")
	lang, open, start := "", false, 0
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		where := fmt.Sprintf("%s:%d", name, i+1)
		fence := strings.TrimLeft(line, " ")
		if strings.HasPrefix(fence, "```") {
			if open {
				open = false
			} else {
				open, start, lang = true, i+1, strings.TrimSpace(strings.TrimPrefix(fence, "```"))
			}
			continue
		}
		if !open {
			continue
		}
		text := strings.TrimSpace(line)
		switch lang {
		case "sh":
		case "console":
			var ok bool
			if text, ok = strings.CutPrefix(text, "$ "); !ok {
				continue
			}
		default:
			if showsLocklab(strings.TrimPrefix(text, "$ ")) {
				errs = append(errs, fmt.Errorf("%s: a command in a ```%s block, which this test does not read: make the block ```console (or ```sh): %s", where, lang, text))
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(lines[i])
		}
		cmds = append(cmds, docCommand{text: normalize(text), where: where})
	}
	if open {
		errs = append(errs, fmt.Errorf("%s:%d: a fenced block that never ends", name, start))
	}
	return cmds, errs
}

func showsLocklab(line string) bool {
	return strings.HasPrefix(line, "go run .") || strings.HasPrefix(line, "locklab ") || strings.HasPrefix(line, "./locklab ")
}

// normalize is a command without its trailing comment, its runs of
// blanks outside quotes one space.
func normalize(cmd string) string {
	var b strings.Builder
	var quote byte
	space := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(cmd) {
				b.WriteByte(c)
				i++
				c = cmd[i]
			} else if c == quote {
				quote = 0
			}
		case c == '\\' && i+1 < len(cmd):
			b.WriteByte(c)
			i++
			c = cmd[i]
		case c == '\'' || c == '"':
			quote = c
		case c == ' ' || c == '\t':
			space = true
			continue
		case c == '#' && (space || b.Len() == 0):
			return strings.TrimSpace(b.String())
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

// scriptRun is a testscript's run of a command it names in a comment.
type scriptRun struct {
	file   string
	line   int
	lines  []string // the script's lines, from the one after the comment
	files  map[string][]byte
	runner []string // the words of the line that runs it
	runAt  int      // its index in lines
}

// scriptRuns are the testscripts' comment lines, by the command they
// name, each with what follows it.
func scriptRuns(t *testing.T) map[string][]scriptRun {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string][]scriptRun{}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		archived := map[string][]byte{}
		for _, af := range a.Files {
			archived[af.Name] = af.Data
		}
		lines := strings.Split(string(a.Comment), "\n")
		for i, l := range lines {
			if name, ok := strings.CutPrefix(l, "# "); ok {
				key := normalize(name)
				runs[key] = append(runs[key], scriptRun{file: f, line: i + 1, lines: lines[i+1:], files: archived, runAt: -1})
			}
		}
	}
	return runs
}

// check says what is wrong with r as the run of c, or nil.
func (r scriptRun) check(c docCommand) error {
	at := fmt.Sprintf("%s:%d", r.file, r.line)
	for i, l := range r.lines {
		words := scriptWords(l)
		if len(words) == 0 || strings.HasPrefix(words[0], "#") {
			continue
		}
		switch words[0] {
		case "stdin", "cd", "env", "cp", "mkdir", "rm", "chmod":
			continue
		case "exec", "tty", "grep":
			r.runner, r.runAt = words, i
		default:
			return fmt.Errorf("%s: the line after the comment does not run it: %s", at, l)
		}
		break
	}
	if r.runAt < 0 {
		return fmt.Errorf("%s: nothing runs it after the comment", at)
	}
	if err := r.sameCommand(c.text); err != nil {
		return fmt.Errorf("%s: %v", at, err)
	}
	if r.runner[0] == "grep" {
		return nil // a grep is its own check
	}
	for _, l := range r.lines[r.runAt+1:] {
		words := scriptWords(l)
		if len(words) == 0 || strings.HasPrefix(words[0], "#") {
			continue
		}
		switch words[0] {
		case "stdout", "stderr", "cmp", "cmpenv", "grep", "exists":
			return nil
		case "exec", "tty":
			return fmt.Errorf("%s: the run is not followed by a check of its output (stdout, stderr, cmp, grep, exists) before the next one", at)
		}
	}
	return fmt.Errorf("%s: the run is not followed by a check of its output", at)
}

// sameCommand checks that the runner runs locklab with the words the docs
// show, when they show locklab run with one plain command.
func (r scriptRun) sameCommand(doc string) error {
	docWords, plain := shellWords(doc)
	prog := 0
	switch {
	case len(docWords) >= 3 && docWords[0] == "go" && docWords[1] == "run" && docWords[2] == ".":
		prog = 3
	case len(docWords) >= 1 && (docWords[0] == "locklab" || docWords[0] == "./locklab"):
		prog = 1
	}
	if !plain || prog == 0 {
		return nil
	}
	var args []string
	switch r.runner[0] {
	case "exec":
		if len(r.runner) < 2 || r.runner[1] != "locklab" {
			return fmt.Errorf("the docs run locklab, the script runs %s", strings.Join(r.runner, " "))
		}
		args = r.runner[2:]
	case "tty":
		args = r.runner[min(2, len(r.runner)):]
	default:
		return fmt.Errorf("the docs run locklab, the script runs %s", r.runner[0])
	}
	want := docWords[prog:]
	for _, a := range args {
		if len(want) > 0 && r.sameWord(want[0], a) {
			want = want[1:]
		}
	}
	if len(want) > 0 {
		return fmt.Errorf("its run `%s` lacks %q of the docs' command", strings.Join(r.runner, " "), want[0])
	}
	return nil
}

func (r scriptRun) sameWord(doc, script string) bool {
	switch {
	case doc == script:
		return true
	case strings.HasPrefix(doc, "scripts/") && script == "$SCRIPTS/"+strings.TrimPrefix(doc, "scripts/"):
		return true
	case doc == "6379" && script == "$REDIS_PORT":
		return true
	case strings.ContainsAny(doc, " ;") && strings.Contains(script, doc):
		return true
	}
	// A file of the repository, copied into the script's archive.
	copied, ok := r.files[script]
	if !ok || script != filepath.Base(doc) {
		return false
	}
	original, err := os.ReadFile(doc)
	return err == nil && string(original) == string(copied)
}

// scriptWords splits a testscript line as testscript does: words
// separated by blanks, '...' quoting (a doubled quote inside it is one), a leading
// [condition] and ! or ? dropped.
func scriptWords(line string) []string {
	var words []string
	var b strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\'':
			quoted, inWord = !quoted, true
		case !quoted && (c == ' ' || c == '\t'):
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	for len(words) > 0 && (strings.HasPrefix(words[0], "[") || words[0] == "!" || words[0] == "?") {
		words = words[1:]
	}
	return words
}

// shellWords splits a command as sh would, for a plain command: quotes
// and backslashes, no expansion. plain is false when the command is more
// than one simple command (a pipe, a list, a redirection, a
// substitution), which only the structure of its run is checked for.
func shellWords(cmd string) (words []string, plain bool) {
	var b strings.Builder
	var quote byte
	inWord := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(cmd) && strings.IndexByte(`"\$`+"`", cmd[i+1]) >= 0:
				i++
				b.WriteByte(cmd[i])
			case c == '$' || c == '`':
				return nil, false
			default:
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			b.WriteByte(cmd[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		case strings.IndexByte("|&;<>()$`", c) >= 0:
			return nil, false
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, quote == 0
}

// TestDocsCheckerCatches shows TestDocsExamplesRun's checks failing as
// they should, on a made-up doc and script.
func TestDocsCheckerCatches(t *testing.T) {
	doc := "```sh\ngo run . scripts/x.lab   # the lab\ngo run . -c 'SET k v'\n```\n\n" +
		"```console\n$ go run . explore y.lab\nexplored 1 schedule\n$ go run . unrun.lab\n```\n\n" +
		"```\n$ go run . hidden.lab\n```\n\n```text\n$ ./book_no_lock.sh alice\n```\n"
	cmds, errs := commandsIn("doc.md", doc)
	var texts []string
	for _, c := range cmds {
		texts = append(texts, c.text)
	}
	if want := []string{"go run . scripts/x.lab", "go run . -c 'SET k v'", "go run . explore y.lab", "go run . unrun.lab"}; !slices.Equal(texts, want) {
		t.Errorf("commands %q, want %q", texts, want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "doc.md:13: a command in a ``` block") {
		t.Errorf("errors %v, want one for the bare block's go run", errs)
	}

	script := []string{
		"# go run . scripts/x.lab",
		"exec locklab --no-notes $SCRIPTS/x.lab",
		"stdout '^ok$'",
		"",
		"# go run . -c 'SET k v'",
		"! exec locklab -c 'SET k v'",
		"exec locklab GET k",
		"stdout v",
		"",
		"# go run . explore y.lab",
		"stdin in.txt",
		"exec locklab explore z.lab",
		"stdout explored",
	}
	runs := map[string]scriptRun{}
	for i, l := range script {
		if name, ok := strings.CutPrefix(l, "# "); ok {
			runs[normalize(name)] = scriptRun{file: "s.txtar", line: i + 1, lines: script[i+1:], runAt: -1}
		}
	}
	for _, tc := range []struct{ cmd, err string }{
		{"go run . scripts/x.lab", ""},
		{"go run . -c 'SET k v'", "not followed by a check of its output"},
		{"go run . explore y.lab", `lacks "y.lab"`},
	} {
		err := runs[tc.cmd].check(docCommand{text: tc.cmd})
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.cmd, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.cmd, err, tc.err)
		}
	}
	if _, ok := runs["go run . unrun.lab"]; ok {
		t.Error("a run for unrun.lab, which no script names")
	}
	if got := normalize("go run . explore blocks.lab     # SET a 1, then BLPOP q 0"); got != "go run . explore blocks.lab" {
		t.Errorf("normalize: %q", got)
	}
	if got := normalize(`go build -o locklab . && ./locklab -c 'rm  #x'; echo $?     # 127`); got != `go build -o locklab . && ./locklab -c 'rm  #x'; echo $?` {
		t.Errorf("normalize: %q", got)
	}
}
