package resp

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// reprEscapes are the bytes sdscatrepr writes as a backslash escape ("" for
// the others). An array, not a map: nothing to build at start-up.
var reprEscapes = [256]string{
	'\\': `\\`, '"': `\"`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\a': `\a`, '\b': `\b`,
}

// Quote returns s in double quotes the way redis-cli prints a bulk string
// (sdscatrepr in src/sds.c): \\ \" \n \r \t \a \b as backslash escapes,
// the other bytes outside printable ASCII (0x20-0x7e) as \xhh in lowercase
// hex, and the rest as they are. It works on bytes, so UTF-8 text comes
// out as "\xe4\xbd\xa0".
func Quote(s string) string { return quote(s, false) }

// QuoteText is Quote for a person to read rather than for redis-cli's
// bytes: printable UTF-8 text stays as it is ("你好", not "\xe4\xbd\xa0"),
// and every other byte is escaped as Quote escapes it: control
// characters, invalid UTF-8, and the UTF-8 of a character that is not
// printable (a C1 control such as U+009B, which some terminals take for
// an escape sequence, a bidirectional override) byte by byte.
func QuoteText(s string) string { return quote(s, true) }

// Printable is s as a terminal can show it without acting on it: s itself
// when every character in it is printable (strconv.IsPrint: UTF-8 text, a
// space, a quote and a backslash are), else QuoteText(s). So a lock token
// "\x1b]0;pwned\x07" does not retitle the window and "x\nverdict: ALL
// CLEAR" does not start a line of its own: they show as
// "\x1b]0;pwned\a" and "x\nverdict: ALL CLEAR", quotes included.
//
// What it returns is printable, so Printable(Printable(s)) ==
// Printable(s): a text made of shown values can be shown again and stays
// as it is. The price is that a printable value that reads like a quoted
// one (the six characters "\x07", quotes included) shows the same as it.
func Printable(s string) string {
	if isPrintable(s) {
		return s
	}
	return QuoteText(s)
}

// isPrintable reports whether every character of s is valid UTF-8 and
// printable.
func isPrintable(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !strconv.IsPrint(r) {
			return false
		}
		i += size
	}
	return true
}

// quote is sdscatrepr, byte by byte; with text set, a printable
// non-ASCII character is written as it is (see QuoteText).
func quote(s string, text bool) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if text && c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRuneInString(s[i:]); size > 1 && strconv.IsPrint(r) {
				b.WriteString(s[i : i+size])
				i += size - 1
				continue
			}
		}
		switch esc := reprEscapes[c]; {
		case esc != "":
			b.WriteString(esc)
		case c < 0x20 || c > 0x7e:
			b.Write([]byte{'\\', 'x', hex[c>>4], hex[c&0xf]})
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
