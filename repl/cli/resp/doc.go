// Package resp parses Redis replies (RESP2 and RESP3) and prints them the
// way redis-cli 7 does, byte for byte.
//
// A session sends a command, reads the raw reply bytes and calls [Parse],
// which keeps what the Go Redis clients lose: whether a string came as a
// status (+OK) or a bulk string ($2 OK), and the wire order of map
// entries. [FormatTTY] then prints it like redis-cli on a terminal
// (cliFormatReplyTTY in src/redis-cli.c), [FormatRaw] like redis-cli with
// its output piped (cliFormatReplyRaw), and [Format] adds redis-cli's
// special case for the few commands it always prints raw ([RawOnTTY]).
// [Printable] shows any one string in the lab's own lines (a note, a
// verdict, a timeline) that names a value from the server: as it is when
// it is printable text, else quoted as redis-cli quotes a bulk string.
//
// For tools and tests that talk to a server without a client library,
// [Command] writes a command and a [Reader] reads the replies from a
// stream the caller opened.
//
// The package is pure: it opens nothing (a Reader reads only the stream
// it is given) and imports nothing from the rest of the project.
// Parse never panics on any input, never allocates more than a small
// multiple of its input, and stops at [MaxDepth] levels of nesting.
//
// Where redis-cli 7.0 gives up (a RESP3 big number makes it exit with
// "Unknown reply type: 13", an attribute with a protocol error), this
// package does something useful instead; the doc comments of [FormatTTY] and
// [Parse] say what.
package resp
