package session

import (
	"context"
	"sync/atomic"
)

// SecretWatch learns whether a command sent under a context carried a
// secret (see CarriesSecret). The REPL watches each entry it runs, its
// background jobs included, and leaves one that sent a secret out of its
// history: what decides is what reached a server, not how it was typed
// (A\UTH pw, a=AUTH; $a pw, x=$(AUTH pw) all send AUTH pw).
type SecretWatch struct{ sent atomic.Bool }

type watchKey struct{}

// WatchSecrets returns ctx with a new watch on it: every command a Conn
// sends under the context returned, or one made from it, is checked.
func WatchSecrets(ctx context.Context) (context.Context, *SecretWatch) {
	w := &SecretWatch{}
	return context.WithValue(ctx, watchKey{}, w), w
}

// Sent reports whether a command sent under the watch so far carried a
// secret.
func (w *SecretWatch) Sent() bool { return w.sent.Load() }

// sending marks ctx's watch, if any, when args carry a secret. A Conn
// calls it before it sends: a command cut short may have gone out.
func sending(ctx context.Context, args []string) {
	if CarriesSecret(args) {
		SentSecret(ctx)
	}
}

// SentSecret marks ctx's watch, if any: a secret went out otherwise than
// as a command's arguments (the AUTH a redis-cli call given -a sends as
// its connection opens).
func SentSecret(ctx context.Context) {
	if w, ok := ctx.Value(watchKey{}).(*SecretWatch); ok {
		w.sent.Store(true)
	}
}
