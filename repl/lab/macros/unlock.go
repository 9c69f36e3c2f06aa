package macros

import (
	"context"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/keyguard"
	"github.com/locklab/locklab/repl/lab/scripts"
	"github.com/locklab/locklab/repl/lang/flags"
)

// blindUnlock is blind_unlock_demo.sh, with slow and fast as two sessions
// on their own connections, so that the annotator can tell whose lock a
// DEL removed. --release eval runs the same timeline with the fix.
func blindUnlock(ctx context.Context, env Env, p *flags.Parsed) error {
	key, work, release := p.String("key"), p.Duration("work"), p.String("release")
	slowTTL, fastTTL := p.Duration("slow-ttl"), p.Duration("fast-ttl")
	if err := checkKeys(ctx, env, "blind-unlock", "--key", demoKey(key)); err != nil {
		return err
	}
	steps := []step{
		{"main", "resetting demo key:", []string{"DEL", key}},
		{"slow", "slow_client acquiring:", []string{"SET", key, slowToken, "PX", millis(slowTTL), "NX"}},
		{"fast", "fast_client acquiring after expiry:", []string{"SET", key, fastToken, "PX", millis(fastTTL), "NX"}},
		{"slow", "slow_client blindly unlocking (no token check):", []string{"DEL", key}},
		{"main", "lock owner after slow_client's blind DEL:", []string{"GET", key}},
	}
	if release == "eval" {
		steps[3].say = "slow_client unlocking with compare-and-delete:"
		steps[4].say = "lock owner after slow_client's compare-and-delete:"
	}
	if work < slowTTL { // slow's lock has not expired yet when fast tries
		steps[2].say = "fast_client acquiring (slow's lock has not expired yet):"
	}
	for i, s := range steps {
		if i == 2 {
			if err := env.Sleep(ctx, work); err != nil {
				return err
			}
		}
		if err := s.run(ctx, env, release == "eval"); err != nil {
			return err
		}
	}
	return nil
}

// The tokens blind-unlock's two clients lock with.
const (
	slowToken = "slow-client-token"
	fastToken = "fast-client-token"
)

// demoKey is blind-unlock's key as a run of it leaves it: absent, or a
// lock of slow's or fast's with its TTL (fast's outlives the run with
// --release eval).
func demoKey(key string) keyguard.Key {
	return keyguard.Key{Name: key, Ours: keyguard.Lock(func(v string) bool { return v == slowToken || v == fastToken })}
}

type step struct {
	session, say string
	args         []string
}

func (s step) run(ctx context.Context, env Env, safeRelease bool) error {
	env.Say(s.session, "%s", s.say)
	if safeRelease && s.session == "slow" && s.args[0] == "DEL" {
		_, err := evalRelease(ctx, env, s.session, s.args[1], slowToken, true)
		return err
	}
	_, err := env.Run(ctx, s.session, s.args...)
	return err
}

func evalReleaseMacro(ctx context.Context, env Env, p *flags.Parsed) error {
	_, err := evalRelease(ctx, env, env.Session(), p.Args[0], p.Args[1], true)
	return err
}

// evalRelease runs the compare-and-delete, scripts.Release (see
// evalScript).
func evalRelease(ctx context.Context, env Env, session, key, token string, print bool) (resp.Reply, error) {
	return evalScript(ctx, env, session, scripts.Release, []string{key}, []string{token}, print)
}

// evalScript runs s as EVALSHA, loading it with SCRIPT LOAD the first
// time (and again if the server answers NOSCRIPT: it was restarted or
// flushed). print says whether its reply is shown.
func evalScript(ctx context.Context, env Env, session string, s *scripts.Script, keys, argv []string, print bool) (resp.Reply, error) {
	script := s.Body
	send := env.Query
	if print {
		send = env.Run
	}
	for attempt := 0; ; attempt++ {
		if attempt > 0 || env.SHA(script) == "" {
			sha, err := env.Query(ctx, session, "SCRIPT", "LOAD", script)
			if err != nil || sha.Kind != resp.Bulk {
				return sha, err
			}
			env.SetLoaded(script, sha.Str)
		}
		args := append([]string{"EVALSHA", env.SHA(script), strconv.Itoa(len(keys))}, keys...)
		r, err := send(ctx, session, append(args, argv...)...)
		if err != nil || attempt > 0 || !r.IsError() || !strings.HasPrefix(r.Str, "NOSCRIPT") {
			return r, err
		}
	}
}
