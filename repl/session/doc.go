// Package session owns locklab's connections to Redis.
//
// A Session is a name and one dedicated connection, so that MULTI, SELECT
// and a lock's owner all stay put between commands; the REPL starts in
// session "main", and `@alice ...` or a background job gets its own. A
// one-shot connection serves each `redis-cli` call, as the real program
// would. Every command sent produces an Event (session, arguments, reply,
// start and end), which the lab's annotator reads.
//
// Replies come back as resp.Reply trees parsed from the raw bytes, never
// through go-redis's typed results, which lose the difference between a
// status and a bulk string.
package session
