package keyguard

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// Key is a key a macro is about to delete, and what the lab itself may
// have left in it.
type Key struct {
	Name string
	Ours func(Found) bool
}

// Found is what the server holds in a key that exists.
type Found struct {
	Type  string // string, hash, list, set, zset, stream
	PTTL  int64  // milliseconds left, -1 for none
	Value string // a string's value; "" for other types and strings over maxValue bytes
}

// maxValue bounds the string values the check reads: the lab writes
// tokens and counters, a few bytes each, and a large value someone else
// wrote need not cross the network to be told apart from them.
const maxValue = 64

// Lock is what the lab leaves in a lock key: a string with a TTL (the lab
// always sets one) holding one of its tokens.
func Lock(isToken func(string) bool) func(Found) bool {
	return func(f Found) bool { return f.Type == "string" && f.PTTL > 0 && isToken(f.Value) }
}

// Counter is what the lab leaves in a counter (INCR, DECR, or SET of a
// number it computed): a whole number with no TTL.
func Counter(f Found) bool {
	_, err := strconv.ParseInt(f.Value, 10, 64)
	return f.Type == "string" && f.PTTL == -1 && err == nil
}

// Send sends one command and answers its reply.
type Send func(ctx context.Context, args ...string) (resp.Reply, error)

// Guard is one macro's check: Word names it in the refusal, Flag is the
// option that chooses other keys.
type Guard struct {
	Word, Flag string
	Send       Send
}

// keysPerScript bounds one script's keys, so that load's 10,000 locks do
// not make one 50,000-argument command.
const keysPerScript = 1000

// Check reads keys on the server and answers a *ForeignError for the
// first whose Ours refuses what it holds, nil when every one is absent or
// the lab's, or the error that kept it from reading them: a key the
// check could not read must not be deleted either.
func (g Guard) Check(ctx context.Context, keys []Key) error {
	for chunk := range slices.Chunk(keys, keysPerScript) {
		found, err := g.inspect(ctx, chunk)
		if err != nil {
			return fmt.Errorf("could not read its keys before deleting them: %w", err)
		}
		for _, k := range chunk {
			if f, ok := found[k.Name]; ok && !k.Ours(f) {
				return &ForeignError{Word: g.Word, Flag: g.Flag, Key: k.Name, Type: f.Type}
			}
		}
	}
	return nil
}

// inspect runs scripts.Inspect on keys (it answers, for each that exists,
// the key, its type, its PTTL and, for a string of at most maxValue
// bytes, its value) and answers what exists, by name.
func (g Guard) inspect(ctx context.Context, keys []Key) (map[string]Found, error) {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	reply, err := g.Send(ctx, scripts.Inspect.Eval(names, strconv.Itoa(maxValue))...)
	if err != nil {
		return nil, err
	}
	if reply.Kind != resp.Array {
		return nil, fmt.Errorf("the server answered %s", describe(reply))
	}
	found := map[string]Found{}
	for _, e := range reply.Elems {
		if len(e.Elems) != 4 || e.Elems[2].Kind != resp.Int {
			return nil, fmt.Errorf("the server answered %s", describe(reply))
		}
		found[e.Elems[0].Str] = Found{Type: e.Elems[1].Str, PTTL: e.Elems[2].Int, Value: e.Elems[3].Str}
	}
	return found, nil
}

// describe is a reply the check did not expect, in a few words.
func describe(r resp.Reply) string {
	if r.Kind == resp.Error {
		return r.Str
	}
	return "an unexpected reply"
}

// ForeignError is a key that holds data the lab did not write: the macro
// that would delete it refused, and sent nothing else.
type ForeignError struct {
	Word, Flag string // the macro, and the option that chooses other keys
	Key, Type  string
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s holds data locklab did not write (%s), which %s would delete: nothing was run; choose another key with %s, e.g. %s lock:mine",
		e.Key, typeName(e.Type), e.Word, e.Flag, e.Flag)
}

// typeName is a Redis type (TYPE's answer) in words.
func typeName(t string) string {
	switch t {
	case "string", "hash", "list", "set", "stream":
		return "a " + t
	case "zset":
		return "a sorted set"
	}
	return "a value of type " + t
}
