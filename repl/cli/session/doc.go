// Package session owns locklab's connections to Redis.
//
// A Session is a name and one dedicated connection, so that MULTI, SELECT
// and a lock's owner all stay put between commands; the REPL starts in
// session "main", and `@alice ...` or a background job gets its own. A
// one-shot connection serves each `redis-cli` call, as the real program
// would. Every command sent produces an Event (session, arguments, reply,
// start and end), which is passed to the Set's observer.
//
// The package knows nothing of locks. Whoever runs the sessions sets up a
// chain of Middleware (Set.Use) that every command passes through: the
// lab's probe, which reads lock keys around a command (repl/lab/probe), or a
// Gate where a session's next command waits for its turn. With none, a
// command goes out as typed. A gate installed with UseGate is kept
// (Set.Gate), so that what the lab sends on connections of its own (a
// Redlock node's) takes its turns there too (TurnOn: a step named
// "alice@A").
//
// A connection follows what redis-cli follows of its state: CLIENT REPLY
// OFF, SKIP and ON (a command the server will not answer is sent and not
// waited for: its reply is resp.None), and the commands after which the
// server keeps sending (SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE, MONITOR), which
// Session.Stream reads until it is told to stop, and after which the
// connection is closed and dialled anew, so that no message is ever read
// as the reply to a command.
//
// What is a secret has one rule (CarriesSecret; Redact hides the same
// words in what locklab shows). Every command a Conn sends is checked
// against it for the SecretWatch on its context, if any: the REPL
// watches each entry, and keeps one that sent a secret out of its
// history, whatever the spelling that produced the command.
//
// Replies come back as resp.Reply trees parsed from the raw bytes, never
// through go-redis's typed results, which lose the difference between a
// status and a bulk string.
package session
