// Package keyguard keeps the lab from deleting data it did not write.
//
// A macro that deletes its keys before it starts (load, blind-unlock)
// first asks Check about them. Check reads every key on the server in one
// script, so atomically, and answers a *ForeignError for the first that
// holds something the lab never leaves there: on a real server that key
// is someone else's, and the macro refuses before it sends anything else.
// A key is the lab's when it is absent, or when it holds what a run of
// the lab leaves behind (a lock with one of its tokens and a TTL, a
// counter); Key says which, from the server's answer, never from the
// key's name. So a run killed half-way, whose keys are left, does not
// stop the next one, and a user's hash named lock:load does.
//
// The embedded Redis is fresh for each run of locklab, so the callers
// skip the check there and send exactly what they sent before.
package keyguard
