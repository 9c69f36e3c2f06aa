// Package commute says whether two Redis commands of different sessions
// give the same results in either order, from their words alone: the
// command table's key positions and read-only flags, and for a Lua script
// its declared keys when its body touches no other. What cannot be known
// is taken as conflicting with everything, which is always safe for the
// one user of the answer, explore's reduction. A command sent to another
// server than the lab's own (a Redlock node: Access.On) commutes with
// every command of any other server.
package commute
