package explore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/lang/words"
)

// TestRefusedAtRunTime: a word that starts servers (or that explore
// cannot run for another reason), named only at run time, stops the
// search when a run reaches it, before it runs: no redis-server is ever
// started. Before, the static refusal missed `c=cluster; $c up`, and
// every schedule started a cluster (about 240 servers for one search).
func TestRefusedAtRunTime(t *testing.T) {
	redistest.NeedProgram(t, "redis-server") // else `cluster up` could not start one anyway
	for _, c := range []struct{ text, word, at string }{
		{"SET a 1\nc=cluster\n$c up\n@x SET b 1 &\n@y SET b 2 &\nwait\n", "cluster", "dyn.lab:3:1"},
		{"r=redlock\n@a SET k 1 &\n$r up --real &\nwait\n", "redlock", "dyn.lab:3:1"},
		{"f() { \"$@\"; }\n@a SET k 1 &\nf cluster up\n", "cluster", "dyn.lab:1:7"},
		{"l=load\n@a SET k 1 &\n$l 2\n", "load", "dyn.lab:3:1"},
	} {
		stop := watchServers()
		_, err := Explore(context.Background(), inline("dyn.lab", c.text), Options{})
		servers := stop()
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Word != c.word || refused.At != c.at {
			t.Errorf("%q: got %v, want `%s` refused at %s", c.text, err, c.word, c.at)
		}
		if len(servers) > 0 {
			t.Errorf("%q: redis-server processes %v started", c.text, servers)
		}
	}
}

// watchServers polls the test's redis-server children until stop is
// called, which returns every one it saw.
func watchServers() func() []int {
	quit, done := make(chan struct{}), make(chan []int)
	go func() {
		var seen []int
		for {
			for _, pid := range redistest.ChildServers() {
				if !slices.Contains(seen, pid) {
					seen = append(seen, pid)
				}
			}
			select {
			case <-quit:
				done <- seen
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() []int { close(quit); return <-done }
}

// TestRefusedFromTheEntry: the static refusal is the entry's: every word
// of the table whose entry says explore cannot run it is refused where
// the script names it, with the entry's reason, and no other word is.
func TestRefusedFromTheEntry(t *testing.T) {
	refusedWords := 0
	for _, w := range words.Table() {
		err := refuse(inline("w.lab", "DEL k\n"+w.Name+" x\n"))
		why := w.ExploreRefusal([]string{w.Name, "x"})
		var refused *RefusedError
		switch {
		case why == "" && err != nil:
			t.Errorf("%s: refused (%v), its entry says explore runs it", w.Name, err)
		case why != "" && (!errors.As(err, &refused) || refused.Why != why || refused.Pos.Line() != 2):
			t.Errorf("%s: got %v, want line 2 refused for %q", w.Name, err, why)
		case why != "":
			refusedWords++
		}
	}
	if refusedWords < 2 || !strings.Contains(words.Find("cluster").Unexplorable, "redis-server") {
		t.Errorf("%d words refused; cluster's reason %q", refusedWords, words.Find("cluster").Unexplorable)
	}
}

// TestRefusedCalls: a word explore runs in some calls and not in others
// is refused by its call's words: Redlock on real nodes or through
// go-redsync, and a cluster's crash, where the script names them (or
// when the run reaches a call whose words come at run time), while
// Redlock's embedded nodes and their faults explore.
func TestRefusedCalls(t *testing.T) {
	for line, why := range map[string]string{
		"redlock up --real":                        "`redlock up --real` starts redis-server processes",
		"@a redlock up --nodes 3 --real":           "`redlock up --real` starts redis-server processes",
		"redlock up --client redsync":              "`redlock up --client redsync` runs go-redsync",
		"redlock up --client=redsync":              "`redlock up --client redsync` runs go-redsync",
		"crash primary":                            "it kills the primary of a cluster",
		"redlock up":                               "",
		"redlock up --nodes 3 --client locklab":    "",
		`redlock up "$@"`:                          "",
		"redlock acquire lock:x t1 --ttl 2s":       "",
		"clock jump C +11s":                        "",
		"crash C":                                  "",
		"restart C --delay 4s":                     "",
		"pause alice 3s":                           "",
		"redlock up --real=false --client locklab": "",
	} {
		err := refuse(inline("c.lab", "DEL k\n"+line+"\n"))
		var refused *RefusedError
		switch {
		case why == "" && err != nil:
			t.Errorf("%s: refused (%v)", line, err)
		case why != "" && (!errors.As(err, &refused) || !strings.HasPrefix(refused.Why, why) || refused.Pos.Line() != 2):
			t.Errorf("%s: got %v, want line 2 refused: %s", line, err, why)
		}
	}
	sc := inline("args.lab", "@a SET k 1 &\nredlock up \"$@\"\n")
	sc.Args = []string{"--real"}
	var refused *RefusedError
	if _, err := Explore(context.Background(), sc, Options{}); !errors.As(err, &refused) || refused.At != "args.lab:2:1" {
		t.Errorf("redlock up \"$@\" with $1 --real: got %v, want refused as it runs, at args.lab:2:1", err)
	}
}

// TestRefusedStreams: a Redis command that streams (the command table's
// Streams) is refused where the script names it, however it is spelt:
// quoted, in any case, after a repeat count or an @NAME; one that only
// looks like it is not.
func TestRefusedStreams(t *testing.T) {
	const messages, commands = "it waits for messages for ever", "it streams every command for ever"
	for line, why := range map[string]string{
		"SUBSCRIBE ch": messages, "subscribe ch": messages, `"SUBSCRIBE" ch`: messages, "3 SUBSCRIBE ch": messages,
		"'psubscribe' n*": messages, "@a Ssubscribe ch": messages, "@a 2 subscribe ch &": messages,
		"MONITOR": commands, "monitor": commands, `'MONITOR'`: commands, "5 monitor": commands,
		"PUBLISH ch m": "", "unsubscribe ch": "", "BLPOP q 1": "", "SUBSCRIBER x": "",
	} {
		err := refuse(inline("s.lab", "DEL k\n"+line+"\n"))
		var refused *RefusedError
		switch {
		case why == "" && err != nil:
			t.Errorf("%s: refused (%v)", line, err)
		case why != "" && (!errors.As(err, &refused) || !strings.HasPrefix(refused.Why, why) || refused.Pos.Line() != 2):
			t.Errorf("%s: got %v, want line 2 refused: %s", line, err, why)
		}
	}
}
