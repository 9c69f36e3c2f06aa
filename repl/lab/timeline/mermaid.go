package timeline

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/locklab/locklab/repl/lab/check"
)

const (
	mermaidName    = 24 // a session name longer than this is cut with …
	mermaidCommand = 60 // a command longer than this is cut with …
	mermaidReply   = 40 // a reply, likewise
	mermaidNote    = 48 // a note is broken into lines of about this many runes
	mermaidLines   = 6  // ... and cut to this many lines (a verdict is not)
	mermaidWord    = 24 // a word longer than this (a SHA, a token) is cut first
)

// Mermaid draws t as a Mermaid sequenceDiagram in the style of the
// lesson's: the sessions and Redis as participants (Redis in the middle),
// each command as a message to Redis and its reply as a dashed message
// back, each note over its session (⚠ a bug showing, ✓ a fix that held),
// each expiry as a note over Redis, and the verdict as notes across all
// participants. Every message and note starts with its offset from the
// start of the run: a command with when it was sent, a reply with when it
// came back.
//
// Participants get safe ids (P1, P2, ... in lane order; R is Redis) and
// the session names as aliases; all text is escaped for Mermaid's
// sequence grammar (see mermaidText).
func Mermaid(t Timeline) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	ids, order := mermaidParticipants(&b, t)
	for _, it := range t.Items {
		p := ids[it.Lane]
		switch {
		case len(it.Steps) > 0:
			mermaidSteps(&b, p, it)
		case it.Kind == Expiry && len(it.On) > 0:
			span := "N" + it.On[0] // a note spans two participants at most
			if len(it.On) > 1 {
				span += ",N" + it.On[len(it.On)-1]
			}
			fmt.Fprintf(&b, "    Note over %s: %s\n", span, mermaidNoteText(offset(it.At)+" ✕ "+it.Text, mermaidLines))
		case it.Kind == Command:
			reply := it.Reply
			if reply == "" {
				reply = "(nil)"
			}
			fmt.Fprintf(&b, "    %s->>R: %s %s\n", p, offset(it.At), mermaidText(cutCommand(it.Text)))
			fmt.Fprintf(&b, "    R-->>%s: %s %s\n", p, offset(it.End), mermaidText(cut(reply, mermaidReply)))
		case it.Kind == Expiry:
			fmt.Fprintf(&b, "    Note over R: %s\n", mermaidNoteText(offset(it.At)+" ✕ "+it.Text, mermaidLines))
		default:
			fmt.Fprintf(&b, "    Note over %s: %s\n", p, mermaidNoteText(offset(it.At)+" "+mark(it.Level)+it.Text, mermaidLines))
		}
	}
	mermaidVerdict(&b, t.Verdict, order)
	return b.String()
}

// mermaidVerdict writes the verdict across the diagram, as the lesson's
// last note does.
func mermaidVerdict(b *strings.Builder, verdict []check.Finding, order []string) {
	span := order[0]
	if len(order) > 1 {
		span += "," + order[len(order)-1]
	}
	for _, f := range verdict {
		level := check.Good
		if f.Bad() {
			level = check.Bad
		}
		fmt.Fprintf(b, "    Note over %s: %s\n", span, mermaidNoteText("verdict: "+mark(level)+f.Text, 0))
	}
}

// mermaidParticipants declares the participants: the sessions with Redis
// in the middle, then Redlock's nodes; it returns each lane's id and the
// ids from left to right.
func mermaidParticipants(b *strings.Builder, t Timeline) (map[string]string, []string) {
	ids := make(map[string]string, len(t.Lanes)) // lane -> participant id
	names := map[string]string{"R": "Redis"}     // participant id -> name
	var order []string                           // participant ids, left to right
	for i, l := range t.Lanes {
		ids[l] = fmt.Sprintf("P%d", i+1)
		names[ids[l]] = l
		order = append(order, ids[l])
	}
	// Redis in the middle, as in the lesson (Client A, Redis, Client B):
	// after the first half of the sessions, rounding up.
	order = slices.Insert(order, (len(order)+1)/2, "R")
	for _, n := range t.Nodes { // Redlock's nodes, after the sessions
		names["N"+n] = "node " + n
		order = append(order, "N"+n)
	}
	for _, p := range order {
		name := cut(strings.TrimSpace(oneLine(names[p])), mermaidName)
		if name == "" {
			name = p
		}
		fmt.Fprintf(b, "    participant %s as %s\n", p, mermaidText(name))
	}
	return ids, order
}

// mermaidSteps draws a Redlock acquisition or release: each node's
// command as a message to the node, its answer back, and the client's
// conclusion over the session.
func mermaidSteps(b *strings.Builder, p string, it Item) {
	for _, s := range it.Steps {
		fmt.Fprintf(b, "    %s->>N%s: %s %s\n", p, s.Node, offset(s.At), mermaidText(cutCommand(s.Command)))
		fmt.Fprintf(b, "    N%s-->>%s: %s %s\n", s.Node, p, offset(s.End), mermaidText(cut(s.Answer, mermaidReply)))
	}
	fmt.Fprintf(b, "    Note over %s: %s\n", p, mermaidNoteText(offset(it.End)+" "+it.Text+": "+it.Reply, mermaidLines))
}

// mark is a note's prefix: ⚠ for a bug showing, ✓ for a fix that held.
func mark(l check.Level) string {
	switch l {
	case check.Bad:
		return "⚠ "
	case check.Good:
		return "✓ "
	}
	return ""
}

// mermaidEntities are the characters Mermaid's sequence grammar reads as
// syntax in a message, note or alias, as Mermaid entity codes (#59; is
// decoded to ; only when the diagram is drawn): ; ends a statement, #
// starts a comment or an entity, < and > make HTML (<br/> breaks a line),
// & an HTML entity, and %% a comment or a %%{directive}%%.
var mermaidEntities = strings.NewReplacer(
	";", "#59;",
	"#", "#35;",
	"<", "#60;",
	">", "#62;",
	"&", "#38;",
	"%", "#37;",
)

// wrapPrefix is the start Mermaid reads as a wrap:/nowrap: option rather
// than text; compiled on first use, not by every run of locklab.
var wrapPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*:?(?:no)?wrap):`) })

// mermaidText is s safe as the text of a message, note or alias: one
// line, no invalid UTF-8, no control characters, Mermaid's specials as
// entity codes.
func mermaidText(s string) string {
	return wrapPrefix().ReplaceAllString(mermaidEntities.Replace(oneLine(s)), "$1#58;")
}

// mermaidNoteText is a note's text, broken into short lines with <br/>
// (Mermaid does not wrap notes by itself) and cut to maxLines (0: all).
func mermaidNoteText(s string, maxLines int) string {
	lines := wrap(oneLine(s), mermaidNote)
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = cut(lines[maxLines-1]+" …", mermaidNote)
	}
	for i, l := range lines {
		lines[i] = mermaidText(l)
	}
	return strings.Join(lines, "<br/>")
}

// oneLine is s with control characters (newlines, tabs, ...) as spaces,
// and invalid UTF-8 and the noncharacters XML forbids as U+FFFD.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r):
			return ' '
		case r == 0xFFFE || r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// cutCommand shortens a command line for a message: each very long word
// (a SHA, a script, a big value) to its start, then the line.
func cutCommand(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		words[i] = cut(w, mermaidWord)
	}
	return cut(strings.Join(words, " "), mermaidCommand)
}

// cut shortens s to at most n runes, ending with … when it was longer.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
