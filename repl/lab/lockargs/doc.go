// Package lockargs reads what a lock command's arguments say: whether a
// SET takes a lock (NX, with its TTL and token), and which keys and
// token an EVAL or EVALSHA names. The annotator (repl/lab/check) and the
// probe (repl/lab/probe) ask it the same questions. It is pure.
package lockargs
