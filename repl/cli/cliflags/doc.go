// Package cliflags parses redis-cli's command-line options.
//
// locklab accepts them twice: on its own command line (`locklab -p 6379`)
// and wherever a lesson runs `redis-cli` or `docker exec ... redis-cli`
// inside the lab language. One parser serves both, so the two can never
// disagree about what `-n 2 --raw` means.
//
// Parsing follows redis-cli: options come first, the first word that is not
// an option starts the command, and a bad option gives redis-cli's own
// message, `Unrecognized option or bad number of args for: '--foo'`.
package cliflags
