package resp

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxDepth is how many aggregates (arrays, maps, sets, pushes, attributes)
// Parse lets nest inside one another. Deeper input is a ProtocolError, so
// a hostile reply cannot exhaust the stack.
const MaxDepth = 1000

// ErrIncomplete says that the input is a valid start of a reply but ends
// too soon: read more bytes and call Parse again with all of them.
var ErrIncomplete = errors.New("resp: incomplete reply")

// ProtocolError says that the input is not RESP: no more bytes can make it
// a valid reply.
type ProtocolError struct {
	Offset int    // where in the input the problem is
	Msg    string // what the problem is
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("resp: protocol error at byte %d: %s", e.Offset, e.Msg)
}

// Parse parses one reply from the front of b and returns it with the
// number of bytes it used; whatever follows is left alone. If b ends
// before the reply does it returns ErrIncomplete, and if b is not RESP a
// *ProtocolError. Parse never panics, and allocates no more than a small
// multiple of len(b) whatever lengths the input declares.
//
// RESP3 attributes (|) are read and dropped: Parse returns the reply that
// follows them, and the bytes used include the attribute. (redis-cli 7.0
// fails on attributes with "Protocol error, got "|" as reply type byte".)
func Parse(b []byte) (Reply, int, error) {
	p := parser{b: b}
	r, err := p.reply(0)
	if err != nil {
		return Reply{}, 0, err
	}
	return r, p.pos, nil
}

// parser reads replies from b, starting at pos.
type parser struct {
	b   []byte
	pos int
}

func (p *parser) errorf(at int, format string, args ...any) error {
	return &ProtocolError{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// reply parses the reply at p.pos, inside depth enclosing aggregates.
func (p *parser) reply(depth int) (Reply, error) {
	for p.pos < len(p.b) && p.b[p.pos] == '|' {
		if err := p.skipAttribute(depth); err != nil {
			return Reply{}, err
		}
	}
	if p.pos >= len(p.b) {
		return Reply{}, ErrIncomplete
	}
	switch t := p.b[p.pos]; t {
	case '+', '-', ':', ',', '#', '_', '(':
		return p.simple(t)
	case '$', '!', '=':
		return p.bulk(t)
	case '*', '%', '~', '>':
		return p.aggregate(t, depth)
	default:
		return Reply{}, p.errorf(p.pos, "unknown reply type %q", t)
	}
}

// line returns the text between the type byte at p.pos and the next
// "\r\n", and moves p.pos past that "\r\n". If there is no "\r\n" yet, it
// returns ErrIncomplete when ok accepts the text so far, and a
// ProtocolError when it does not.
func (p *parser) line(ok func(string) bool) (string, error) {
	start := p.pos + 1
	i := bytes.Index(p.b[start:], []byte("\r\n"))
	if i < 0 {
		partial := strings.TrimSuffix(string(p.b[start:]), "\r")
		if ok(partial) {
			return "", ErrIncomplete
		}
		return "", p.errorf(start, "bad %q line %q", p.b[p.pos], partial)
	}
	p.pos = start + i + 2
	return string(p.b[start : start+i]), nil
}

// simple parses the one-line replies: status, error, integer, double,
// boolean, null and big number.
func (p *parser) simple(t byte) (Reply, error) {
	at := p.pos + 1
	s, err := p.line(linePrefixes[t])
	if err != nil {
		return Reply{}, err
	}
	switch t {
	case '+':
		return Reply{Kind: Status, Str: s}, nil
	case '-':
		return Reply{Kind: Error, Str: s}, nil
	case ':':
		n, ok := parseInt(s)
		if !ok {
			return Reply{}, p.errorf(at, "bad integer %q", s)
		}
		return Reply{Kind: Int, Int: n}, nil
	}
	if !lineValid[t](s) {
		return Reply{}, p.errorf(at, "bad %q line %q", t, s)
	}
	switch t {
	case ',':
		return Reply{Kind: Double, Str: s}, nil
	case '#':
		return Reply{Kind: Bool, Bool: s == "t"}, nil
	case '_':
		return Reply{Kind: Nil}, nil
	default: // '('
		return Reply{Kind: BigNum, Str: s}, nil
	}
}

// bulk parses the replies with a length and a payload: bulk strings, blob
// errors and verbatim strings.
func (p *parser) bulk(t byte) (Reply, error) {
	at := p.pos + 1
	n, err := p.length()
	switch {
	case err != nil:
		return Reply{}, err
	case n == -1:
		return Reply{Kind: Nil}, nil
	case n < 0:
		return Reply{}, p.errorf(at, "bad length %d", n)
	}
	rest := p.b[p.pos:]
	if n > int64(len(rest)) {
		return Reply{}, ErrIncomplete
	}
	body, tail := rest[:n], rest[n:]
	if i := crlfMismatch(tail); i >= 0 {
		return Reply{}, p.errorf(p.pos+int(n)+i, "%d-byte string not followed by \\r\\n", n)
	}
	if len(tail) < 2 {
		return Reply{}, ErrIncomplete
	}
	p.pos += int(n) + 2
	switch t {
	case '!':
		return Reply{Kind: Error, Str: string(body)}, nil
	case '=':
		if n < 4 || body[3] != ':' {
			return Reply{}, p.errorf(at, "verbatim string without a 3-letter format and ':'")
		}
		return Reply{Kind: Verbatim, Str: string(body[4:])}, nil
	}
	return Reply{Kind: Bulk, Str: string(body)}, nil
}

// length parses the length line of a bulk or aggregate reply.
func (p *parser) length() (int64, error) {
	at := p.pos + 1
	s, err := p.line(isDigits)
	if err != nil {
		return 0, err
	}
	n, ok := parseInt(s)
	if !ok {
		return 0, p.errorf(at, "bad length %q", s)
	}
	return n, nil
}

// aggregate parses arrays, maps, sets and pushes.
func (p *parser) aggregate(t byte, depth int) (Reply, error) {
	kind := map[byte]Kind{'*': Array, '%': Map, '~': Set, '>': Push}[t]
	elems, err := p.elems(depth, t == '%')
	if err != nil {
		return Reply{}, err
	}
	if elems == nil {
		return Reply{Kind: Nil}, nil
	}
	return Reply{Kind: kind, Elems: elems}, nil
}

// elems parses the length line and the elements of an aggregate at p.pos
// (pairs of them for a map or an attribute), inside depth enclosing
// aggregates. It returns nil for a null aggregate.
func (p *parser) elems(depth int, pairs bool) ([]Reply, error) {
	at := p.pos
	n, err := p.length()
	if err != nil || n == -1 {
		return nil, err
	}
	if n < 0 {
		return nil, p.errorf(at+1, "bad length %d", n)
	}
	if depth >= MaxDepth {
		return nil, p.errorf(at, "nested deeper than %d", MaxDepth)
	}
	per := 1
	if pairs {
		per = 2
	}
	// Every reply takes at least 3 bytes, so the input bounds this
	// allocation, not the length it declares.
	elems := make([]Reply, 0, int(min(n, int64(len(p.b)-p.pos)/3))*per)
	for i := int64(0); i < n; i++ {
		for range per {
			e, err := p.reply(depth + 1)
			if err != nil {
				return nil, err
			}
			elems = append(elems, e)
		}
	}
	return elems, nil
}

// skipAttribute parses the attribute at p.pos and drops it.
func (p *parser) skipAttribute(depth int) error {
	at := p.pos
	elems, err := p.elems(depth, true)
	if err == nil && elems == nil {
		return p.errorf(at, "null attribute")
	}
	return err
}

// crlfMismatch returns where b stops matching "\r\n", or -1 if it starts
// with "\r\n" or with as much of it as b holds.
func crlfMismatch(b []byte) int {
	const crlf = "\r\n"
	for i := 0; i < len(b) && i < len(crlf); i++ {
		if b[i] != crlf[i] {
			return i
		}
	}
	return -1
}

// linePrefixes accept the text of an unfinished line of each type that
// could still become valid once the line ends. (These tables are arrays,
// not maps: nothing to build at start-up.)
var linePrefixes = [256]func(string) bool{
	'+': func(string) bool { return true },
	'-': func(string) bool { return true },
	':': isDigits,
	',': isDoubleChars,
	'#': func(s string) bool { return s == "" || s == "t" || s == "f" },
	'_': func(s string) bool { return s == "" },
	'(': isDigits,
}

// lineValid accept the text of a complete line of the types that do not
// convert it.
var lineValid = [256]func(string) bool{
	',': isDouble,
	'#': func(s string) bool { return s == "t" || s == "f" },
	'_': func(s string) bool { return s == "" },
	'(': isBigNum,
}

// isDigits accepts an optional minus sign followed by decimal digits: the
// unfinished form of an integer or a length.
func isDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return strings.Trim(s, "0123456789") == ""
}

// parseInt parses a 64-bit integer written the way Redis writes one: no
// plus sign, no leading zeros, no spaces.
func parseInt(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && strconv.FormatInt(n, 10) == s
}

// isBigNum accepts an optional minus sign followed by at least one digit.
func isBigNum(s string) bool {
	return isDigits(s) && strings.TrimPrefix(s, "-") != ""
}

// isDoubleChars accepts the characters a double can be written with,
// including inf, nan, exponents and C's hexadecimal floats.
func isDoubleChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c == '.' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

// isDouble accepts what hiredis accepts as a RESP3 double: "inf", "-inf",
// "nan" and "-nan" in any case, and otherwise a finite number.
func isDouble(s string) bool {
	switch strings.ToLower(s) {
	case "inf", "-inf", "nan", "-nan":
		return true
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) &&
		isDoubleChars(s) && s != ""
}
