package resp

import "strings"

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
func Quote(s string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
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
