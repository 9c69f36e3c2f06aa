// Package pipe is redis-cli's --pipe (mass insertion): whatever stdin
// holds (RESP, or inline commands, which Redis also reads) goes to the
// server as it is, as fast as the connection takes it, while the replies
// are read and counted; an ECHO of a random mark, sent last, says when the
// last reply came. It prints what redis-cli prints, byte for byte: the
// two progress lines and "errors: E, replies: R" on stdout, each error
// reply's text on stderr.
package pipe
