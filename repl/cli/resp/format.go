package resp

import (
	"strconv"
	"strings"
)

// FormatTTY returns what redis-cli 7 prints for r on a terminal (or with
// --no-raw), including the final "\n": the output of cliFormatReplyTTY.
//
//	OK                      status, bare
//	"a\"b\n\xe4"            bulk string, quoted and escaped (sdscatrepr)
//	(integer) 1             (error) ERR ...     (nil)
//	(double) 3.14           (true)  (false)     verbatim text, bare
//	1) "a"                  arrays and pushes; sets number with "~",
//	2) 1) "nested"          maps with "#" and print "key => value"
//	(empty array)           (empty hash) (empty set) (empty push)
//
// A RESP3 big number prints as "(big number) 123", which redis-cli 7.0
// cannot do: it exits with "Unknown reply type: 13". The prefix is the
// one proposed for redis-cli in redis/redis#15764.
func FormatTTY(r Reply) string {
	var b strings.Builder
	formatTTY(&b, r, "")
	return b.String()
}

// formatTTY appends r to b, giving nested lines the prefix.
func formatTTY(b *strings.Builder, r Reply, prefix string) {
	switch r.Kind {
	case Error:
		b.WriteString("(error) " + cString(r.Str) + "\n")
	case Status:
		b.WriteString(cString(r.Str) + "\n")
	case Int:
		b.WriteString("(integer) " + strconv.FormatInt(r.Int, 10) + "\n")
	case Double:
		b.WriteString("(double) " + cString(r.Str) + "\n")
	case Bulk:
		b.WriteString(Quote(r.Str) + "\n")
	case Verbatim:
		b.WriteString(r.Str + "\n")
	case Nil:
		b.WriteString("(nil)\n")
	case Bool:
		b.WriteString(boolText(r.Bool) + "\n")
	case BigNum:
		b.WriteString("(big number) " + r.Str + "\n")
	case Array, Map, Set, Push:
		formatAggregateTTY(b, r, prefix)
	case None: // no reply came, and none was waited for: nothing to print
	default:
		b.WriteString("(unknown reply kind " + strconv.Itoa(int(r.Kind)) + ")\n")
	}
}

// emptyTTY is what redis-cli prints for an aggregate with no elements.
var emptyTTY = [...]string{
	Array: "(empty array)\n", Map: "(empty hash)\n",
	Set: "(empty set)\n", Push: "(empty push)\n",
}

// numSep is the character after each element's index.
var numSep = [...]string{Array: ")", Map: "#", Set: "~", Push: ")"}

// formatAggregateTTY prints each element after its right-aligned 1-based
// index. The first gets no prefix, as the caller has already printed the
// parent's index on that line; the lines of nested replies are indented
// by the prefix plus the width of the index and 2.
func formatAggregateTTY(b *strings.Builder, r Reply, prefix string) {
	n, step := len(r.Elems), 1
	if r.Kind == Map {
		n, step = (n+1)/2, 2
	}
	if n == 0 {
		b.WriteString(emptyTTY[r.Kind])
		return
	}
	width := len(strconv.Itoa(n))
	child := prefix + strings.Repeat(" ", width+2)
	for i := 0; i < len(r.Elems); i += step {
		if i > 0 {
			b.WriteString(prefix)
		}
		idx := strconv.Itoa(i/step + 1)
		b.WriteString(strings.Repeat(" ", width-len(idx)) + idx + numSep[r.Kind] + " ")
		if r.Kind == Map {
			formatPairTTY(b, r.Elems[i:], child)
		} else {
			formatTTY(b, r.Elems[i], child)
		}
	}
}

// formatPairTTY prints a map key (pair[0]) and its value (pair[1]) as
// "key => value". A value that takes several lines starts on a new one
// (redis 7.0, redis/redis#10170).
func formatPairTTY(b *strings.Builder, pair []Reply, child string) {
	var key strings.Builder
	formatTTY(&key, pair[0], child)
	b.WriteString(strings.TrimSuffix(key.String(), "\n") + " => ")
	if len(pair) < 2 { // an odd number of elements: not from Parse
		b.WriteString("(nil)\n")
		return
	}
	if multiline(pair[1]) {
		b.WriteString("\n" + child)
	}
	formatTTY(b, pair[1], child)
}

// multiline says whether FormatTTY prints r on more than one line
// (cliIsMultilineValueTTY).
func multiline(r Reply) bool {
	switch r.Kind {
	case Array, Set, Push:
		return len(r.Elems) > 1 || len(r.Elems) == 1 && multiline(r.Elems[0])
	case Map:
		return len(r.Elems) > 2 || len(r.Elems) == 2 && multiline(r.Elems[1])
	}
	return false
}

// FormatRaw returns what redis-cli 7 prints for r when its output is not a
// terminal (or with --raw), including the "\n" it adds after each reply:
// the output of cliFormatReplyRaw, then the default -D delimiter.
//
// Strings, statuses and numbers print bare and unescaped; an error prints
// its message and a newline (so it is followed by an empty line); nil
// prints nothing (an empty line); the elements of aggregates are joined
// with "\n", and a map entry prints as "key value".
func FormatRaw(r Reply) string {
	if r.Kind == None {
		return "" // not even the delimiter: no reply came
	}
	var b strings.Builder
	formatRaw(&b, r)
	b.WriteString("\n")
	return b.String()
}

func formatRaw(b *strings.Builder, r Reply) {
	switch r.Kind {
	case Error:
		b.WriteString(r.Str + "\n")
	case Status, Bulk, Verbatim, BigNum:
		b.WriteString(r.Str)
	case Double:
		b.WriteString(cString(r.Str))
	case Int:
		b.WriteString(strconv.FormatInt(r.Int, 10))
	case Bool:
		b.WriteString(boolText(r.Bool))
	case Array, Set, Push:
		for i, e := range r.Elems {
			if i > 0 {
				b.WriteString("\n")
			}
			formatRaw(b, e)
		}
	case Map:
		for i := 0; i < len(r.Elems); i += 2 {
			if i > 0 {
				b.WriteString("\n")
			}
			formatRaw(b, r.Elems[i])
			b.WriteString(" ")
			if i+1 < len(r.Elems) {
				formatRaw(b, r.Elems[i+1])
			}
		}
	}
}

// Format returns what redis-cli 7 prints for the reply r to the command
// args, on a terminal if tty is set and on a pipe if not. That is FormatTTY
// or FormatRaw, except for the commands RawOnTTY names: redis-cli prints
// those raw in both modes, with no newline added after them.
func Format(args []string, r Reply, tty bool) string {
	switch {
	case RawOnTTY(args):
		return strings.TrimSuffix(FormatRaw(r), "\n")
	case tty:
		return FormatTTY(r)
	default:
		return FormatRaw(r)
	}
}

func boolText(b bool) string {
	if b {
		return "(true)"
	}
	return "(false)"
}

// cString cuts s at its first NUL byte, as C's printf("%s") and strcat do:
// redis-cli prints errors, statuses and doubles that way.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}
