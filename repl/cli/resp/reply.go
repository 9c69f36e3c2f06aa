package resp

import (
	"strconv"
	"strings"
)

// Kind is the type of a reply, as the first byte on the wire gives it.
// Several wire types share a Kind when redis-cli prints them the same way:
// every null is Nil, and a blob error is an Error.
type Kind uint8

// The kinds of reply, with their wire format. RESP2 has the first five
// (and the null bulk string and null array); RESP3 adds the rest.
const (
	Invalid  Kind = iota // the zero Reply; never returned by Parse
	Status               // +<string>\r\n (simple string)
	Error                // -<string>\r\n, or RESP3 !<len>\r\n<bytes>\r\n (blob error)
	Int                  // :<number>\r\n
	Bulk                 // $<len>\r\n<bytes>\r\n
	Nil                  // $-1\r\n, *-1\r\n (RESP2 nulls), or RESP3 _\r\n
	Array                // *<len>\r\n followed by len replies
	Map                  // %<len>\r\n followed by len key-value pairs (2*len replies)
	Set                  // ~<len>\r\n followed by len replies
	Push                 // ><len>\r\n followed by len replies (out-of-band data)
	Double               // ,<floating point number>\r\n
	Bool                 // #t\r\n or #f\r\n
	Verbatim             // =<len>\r\n<3-letter format>:<bytes>\r\n
	BigNum               // (<big number>\r\n
	// None is no reply at all: a command sent while the server does not
	// answer (CLIENT REPLY OFF, or the command after CLIENT REPLY SKIP).
	// Parse never returns it; it prints as nothing, as in redis-cli.
	None
)

// Attributes (|<len>\r\n followed by len key-value pairs, then the reply
// they describe) have no Kind: Parse skips them and returns the reply.

var kindNames = [...]string{
	Invalid: "Invalid", Status: "Status", Error: "Error", Int: "Int",
	Bulk: "Bulk", Nil: "Nil", Array: "Array", Map: "Map", Set: "Set",
	Push: "Push", Double: "Double", Bool: "Bool", Verbatim: "Verbatim",
	BigNum: "BigNum", None: "None",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Reply is one parsed reply. Which fields mean something depends on Kind:
//
//   - Status, Error, Bulk: Str is the text (an error without its "-").
//   - Verbatim: Str is the text after the "txt:" (or "mkd:") header.
//   - Double, BigNum: Str is the number as the server wrote it.
//   - Int: Int. Bool: Bool.
//   - Array, Set, Push: Elems. Map: Elems holds k1, v1, k2, v2, ... in
//     wire order, so a map of n pairs has 2n Elems.
type Reply struct {
	Kind  Kind
	Str   string
	Int   int64
	Bool  bool
	Elems []Reply
}

// IsError reports whether r is an error reply (-ERR ... or !<len>).
// Errors nested inside an aggregate (from EXEC or EVAL) do not count.
func (r Reply) IsError() bool { return r.Kind == Error }

// String returns a short, one-line form of r for debugging and test
// failures, e.g. [:1 "a\n" +OK nil %{"k": #t}]. It is not redis-cli's
// format: use FormatTTY or FormatRaw for that.
func (r Reply) String() string {
	var b strings.Builder
	r.debug(&b)
	return b.String()
}

func (r Reply) debug(b *strings.Builder) {
	switch r.Kind {
	case Status:
		q := strconv.Quote(r.Str)
		b.WriteString("+" + q[1:len(q)-1])
	case Error:
		b.WriteString("(error " + strconv.Quote(r.Str) + ")")
	case Int:
		b.WriteString(":" + strconv.FormatInt(r.Int, 10))
	case Bulk:
		b.WriteString(strconv.Quote(r.Str))
	case Nil:
		b.WriteString("nil")
	case Double:
		b.WriteString("," + r.Str)
	case Bool:
		b.WriteString("#" + strconv.FormatBool(r.Bool)[:1])
	case Verbatim:
		b.WriteString("=" + strconv.Quote(r.Str))
	case BigNum:
		b.WriteString("(" + r.Str)
	case Array, Set, Push, Map:
		r.debugElems(b)
	default:
		b.WriteString(r.Kind.String())
	}
}

// debugBrackets are the brackets around the elements in String.
var debugBrackets = [...][2]string{
	Array: {"[", "]"}, Push: {">[", "]"}, Set: {"~{", "}"}, Map: {"%{", "}"},
}

func (r Reply) debugElems(b *strings.Builder) {
	b.WriteString(debugBrackets[r.Kind][0])
	for i, e := range r.Elems {
		switch {
		case r.Kind == Map && i%2 == 1:
			b.WriteString(": ")
		case r.Kind == Map && i > 0:
			b.WriteString(", ")
		case i > 0:
			b.WriteString(" ")
		}
		e.debug(b)
	}
	b.WriteString(debugBrackets[r.Kind][1])
}
