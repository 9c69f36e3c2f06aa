// Package backoff is how long a client waits before it tries again for a
// lock another holds: exponential backoff with full jitter, capped, as
// the lock libraries the lesson cites wait (redsync's random retry delay,
// bsm/redislock's ExponentialBackoff; "full jitter" is the scheme of the
// AWS Architecture Blog's "Exponential Backoff And Jitter").
//
// The n-th wait of one acquisition is drawn uniformly from [0, ceiling),
// where the ceiling doubles from Base at each failed attempt and stops at
// Cap. The doubling spaces a crowd of waiters out as it grows, so that
// the server is not flooded with attempts that fail; the jitter keeps
// waiters that failed together from trying again together.
//
// The callers (load's --retry backoff, book-locked --wait, the Redlock
// load's retries) choose Base and Cap, and the random source: a seeded
// one where a run must replay.
package backoff
