package check_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/lockargs"
	"github.com/locklab/locklab/repl/lab/scripts"
)

func TestIsSetNX(t *testing.T) {
	type want struct {
		key, token string
		ttl        time.Duration
	}
	tests := []struct {
		args []string
		want *want // nil: not a SET NX
	}{
		{[]string{"SET", "lock:room:2pm", "token-alice", "NX", "PX", "2000"}, &want{"lock:room:2pm", "token-alice", 2 * time.Second}},
		{[]string{"SET", "lock:demo", "slow-client-token", "PX", "500", "NX"}, &want{"lock:demo", "slow-client-token", 500 * time.Millisecond}},
		{[]string{"set", "lock:demo", "t", "nx", "px", "500"}, &want{"lock:demo", "t", 500 * time.Millisecond}},
		{[]string{"SET", "k", "t", "NX", "EX", "2"}, &want{"k", "t", 2 * time.Second}},
		{[]string{"SET", "k", "t", "ex", "30", "nX"}, &want{"k", "t", 30 * time.Second}},
		{[]string{"SET", "k", "t", "NX"}, &want{"k", "t", 0}},
		{[]string{"SET", "k", "t", "NX", "GET", "PX", "100"}, &want{"k", "t", 100 * time.Millisecond}},
		{[]string{"SET", "k", "t", "NX", "PX"}, &want{"k", "t", 0}},         // PX with no value: Redis says syntax error
		{[]string{"SET", "k", "t", "NX", "PX", "soon"}, &want{"k", "t", 0}}, // not an integer
		{[]string{"SET", "k", "t", "NX", "PX", "-5"}, &want{"k", "t", 0}},   // negative
		{[]string{"SET", "k", "NX", "NX"}, &want{"k", "NX", 0}},             // the token is the third word, even "NX"
		{[]string{"SET", "k", "t"}, nil},
		{[]string{"SET", "k", "NX"}, nil}, // the value NX, not the option
		{[]string{"SET", "k", "t", "PX", "2000"}, nil},
		{[]string{"SET", "k", "t", "XX", "PX", "2000"}, nil},
		{[]string{"SETNX", "k", "t", "NX"}, nil},
		{[]string{"GET", "k"}, nil},
		{[]string{"DEL", "lock:demo", "x", "NX"}, nil},
		{[]string{"SET"}, nil},
		{[]string{}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			key, token, ttl, ok := lockargs.IsSetNX(tt.args)
			if tt.want == nil {
				if ok {
					t.Errorf("IsSetNX(%q) = ok, want not a SET NX", tt.args)
				}
				return
			}
			if !ok || key != tt.want.key || token != tt.want.token || ttl != tt.want.ttl {
				t.Errorf("IsSetNX(%q) = %q, %q, %v, %v; want %q, %q, %v, true", tt.args, key, token, ttl, ok, tt.want.key, tt.want.token, tt.want.ttl)
			}
		})
	}
}

// releaseScript is the compare-and-delete the lab sends.
var releaseScript = scripts.Release.Body

func TestEvalKeys(t *testing.T) {
	tests := []struct {
		args  []string
		ok    bool
		keys  []string
		argv1 string
	}{
		{[]string{"EVAL", releaseScript, "1", "lock:demo", "my-token"}, true, []string{"lock:demo"}, "my-token"},
		{[]string{"EVALSHA", "d02e481a9c91ceec59c5822a58a49d5d5d7ac80b", "1", "lock:demo", "slow-client-token"}, true, []string{"lock:demo"}, "slow-client-token"},
		{[]string{"eval", "s", "1", "k", "t"}, true, []string{"k"}, "t"},
		{[]string{"evalsha", "s", "1", "k", "t"}, true, []string{"k"}, "t"},
		{[]string{"EVAL_RO", "s", "1", "k", "t"}, true, []string{"k"}, "t"},
		{[]string{"EVALSHA_RO", "s", "1", "k", "t"}, true, []string{"k"}, "t"},
		{[]string{"EVAL", "s", "2", "k1", "k2", "t1", "t2"}, true, []string{"k1", "k2"}, "t1"},
		{[]string{"EVAL", "s", "1", "k"}, true, []string{"k"}, ""},
		{[]string{"EVAL", "s", "0"}, true, nil, ""},
		{[]string{"EVAL", "s", "0", "a"}, true, nil, "a"},
		{[]string{"EVAL", "s", "2", "k"}, false, nil, ""}, // fewer keys than numkeys
		{[]string{"EVAL", "s", "-1", "k"}, false, nil, ""},
		{[]string{"EVAL", "s", "one", "k"}, false, nil, ""},
		{[]string{"EVAL", "s"}, false, nil, ""},
		{[]string{"EVAL"}, false, nil, ""},
		{[]string{"FCALL", "release", "1", "k", "t"}, false, nil, ""},
		{[]string{"DEL", "k", "1", "t"}, false, nil, ""},
		{[]string{}, false, nil, ""},
		{nil, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var (
				keys  []string
				argv1 string
				ok    bool
			)
			panicked := catch(func() { keys, argv1, ok = lockargs.EvalKeys(tt.args) })
			if panicked != nil {
				t.Fatalf("EvalKeys(%q) panicked: %v; want ok=false", tt.args, panicked)
			}
			if ok != tt.ok || (ok && (!slices.Equal(keys, tt.keys) || argv1 != tt.argv1)) {
				t.Errorf("EvalKeys(%q) = %q, %q, %v; want %q, %q, %v", tt.args, keys, argv1, ok, tt.keys, tt.argv1, tt.ok)
			}
		})
	}
}

func catch(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func TestFindingBad(t *testing.T) {
	tests := map[check.Kind]bool{
		check.DoubleBooking:       true,
		check.Overbooking:         true,
		check.WrongOwnerDel:       true,
		check.Overlap:             true,
		check.BlindDel:            true,
		check.TwoHolders:          true,
		check.Takeover:            true, // another session replaced or cut a live lock
		check.ExpiredWhileWorking: true, // the work, or a pause, outlasted the TTL: the lesson's failure mode 1, even if nobody entered yet
		check.SlotOK:              false,
		check.AllClear:            false,
		check.NoVerdict:           false,
		check.Kind("unknown"):     false,
	}
	for kind, bad := range tests {
		if got := (check.Finding{Kind: kind, Key: "k", Text: "x"}).Bad(); got != bad {
			t.Errorf("Finding{Kind: %q}.Bad() = %v, want %v", kind, got, bad)
		}
	}
	// Every kind `expect verdict` accepts is judged here.
	for _, k := range check.Kinds {
		if _, ok := tests[k]; !ok {
			t.Errorf("kind %q has no Bad() case", k)
		}
	}
}

// verdictKinds runs an inline .events script and returns the kinds of its
// verdict, in order.
func verdictKinds(t *testing.T, src string) []check.Kind {
	t.Helper()
	s, err := parseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	_, verdict := s.run()
	var kinds []check.Kind
	for _, f := range verdict {
		kinds = append(kinds, f.Kind)
	}
	return kinds
}

func TestVerdictAllClear(t *testing.T) {
	const (
		acquire   = "+0.000..0.001 alice SET lock:x token-alice NX PX 500 -> OK | after lock:x=token-alice pttl=500\n"
		release   = "+0.100..0.101 alice DEL lock:x -> int 1 | before lock:x=token-alice pttl=400\n"
		expired   = "+1.000..1.001 alice DEL lock:x -> int 0 | before lock:x absent\n"
		lost      = "+0.000..0.001 bob SET lock:x token-bob NX PX 500 -> nil | after lock:x=token-alice pttl=499\n"
		check1    = "+0.000 alice LLEN room -> int 0\n+0.300 alice RPUSH room alice -> int 1\n"
		check2    = "+0.000 bob LLEN room -> int 0\n+0.300 bob RPUSH room bob -> int 2\n"
		slow      = "+0.000..0.001 slow SET lock:demo slow-token PX 500 NX -> OK | after lock:demo=slow-token pttl=500\n"
		fast      = "+1.000..1.001 fast SET lock:demo fast-token PX 5000 NX -> OK | after lock:demo=fast-token pttl=5000\n"
		blindDel  = "+1.100..1.101 slow DEL lock:demo -> int 1 | before lock:demo=fast-token pttl=4900\n"
		evalKept  = "+1.100..1.101 slow EVAL s 1 lock:demo slow-token -> int 0 | before lock:demo=fast-token pttl=4900 | after lock:demo=fast-token pttl=4900\n"
		main1     = "+0.000..0.001 main SET lock:demo t1 PX 500 NX -> OK | after lock:demo=t1 pttl=500\n"
		main2     = "+1.000..1.001 main SET lock:demo t2 PX 5000 NX -> OK | after lock:demo=t2 pttl=5000\n"
		mainDel   = "+1.100..1.101 main DEL lock:demo -> int 1 | before lock:demo=t2 pttl=4900\n"
		unchecked = "+0.000 carol RPUSH waitlist carol -> int 1\n+0.001 dave RPUSH waitlist dave -> int 2\n"
		check3    = "+0.000 carol LLEN room -> int 0\n+0.300 carol RPUSH room carol -> int 3\n"
		reset     = "+0.000 main DEL lock:x -> int 0 | before lock:x absent\n"
		failed    = "# failed 3 script.lab:4: book-locked: unexpected argument \"room\"\n"
	)
	tests := []struct {
		name string
		src  string
		want []check.Kind
	}{
		{"empty run", "", nil},
		{"only comments", "# nothing\n", nil},
		{"no locks, no slots", "+0.000 main GET k -> nil\n+0.001 main SET k v -> OK\n", nil},
		{"a push nobody checked", unchecked, nil},
		{"an error reply to SET NX", "+0.000 alice SET lock:x t NX PX 0 -> err ERR invalid expire time in 'set' command | after lock:x absent\n", nil},
		{"acquired and released, nobody else", acquire + release, []check.Kind{check.AllClear}},
		{"acquired once, nothing else", acquire, []check.Kind{check.NoVerdict}},
		{"a lock key reset, nothing acquired", reset, []check.Kind{check.NoVerdict}},
		{"commands failed", failed + reset, []check.Kind{check.NoVerdict}},
		{"commands failed, nothing touched: nothing to judge, no line", failed, nil},
		{"commands failed, a clean race", failed + acquire + lost + release, []check.Kind{check.NoVerdict}},
		{"commands failed, a double booking", failed + "# lengths room=2\n" + check1 + check2, []check.Kind{check.DoubleBooking, check.NoVerdict}},
		{"a loser is no bug", acquire + lost + release, []check.Kind{check.AllClear}},
		{"expired while held, nobody else", acquire + expired, []check.Kind{check.ExpiredWhileWorking}},
		{"one booking, one bidder", "# lengths room=1\n" + check1, []check.Kind{check.SlotOK, check.AllClear}},
		{"double booking", "# lengths room=2\n" + check1 + check2, []check.Kind{check.DoubleBooking}},
		{"two seats", "# seats room=2\n# lengths room=2\n" + check1 + check2, []check.Kind{check.SlotOK, check.AllClear}},
		{"three bookings, two seats", "# seats room=2\n# lengths room=3\n" + check1 + check2 + check3, []check.Kind{check.Overbooking}},
		{"wrong-owner delete", slow + fast + blindDel, []check.Kind{check.WrongOwnerDel, check.Overlap, check.ExpiredWhileWorking}},
		{"compare-and-delete kept", slow + fast + evalKept, []check.Kind{check.Overlap, check.ExpiredWhileWorking}},
		{"blind DEL in one session", main1 + main2 + mainDel, []check.Kind{check.BlindDel}},
		{"double booking and a clean lock", "# lengths room=2\n" + acquire + release + check1 + check2, []check.Kind{check.DoubleBooking}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := verdictKinds(t, tt.src)
			if !slices.Equal(got, tt.want) {
				t.Errorf("verdict kinds = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestVerdictAllClearRule checks the rule on every recorded run: the
// verdict ends in at most one all clear or one NO VERDICT; all clear never
// comes with a bad finding, and a run with failed commands never gets it.
func TestVerdictAllClearRule(t *testing.T) {
	for _, file := range eventFiles(t) {
		s := loadScript(t, file)
		_, verdict := s.run()
		bad, ends := false, 0
		for i, f := range verdict {
			bad = bad || f.Bad()
			if f.Kind == check.AllClear || f.Kind == check.NoVerdict {
				ends++
				if i != len(verdict)-1 {
					t.Errorf("%s: %s is not the last finding", file, f.Kind)
				}
			}
		}
		last := check.Finding{}
		if len(verdict) > 0 {
			last = verdict[len(verdict)-1]
		}
		if ends > 1 || (last.Kind == check.AllClear && (bad || s.failed.Count > 0)) || (s.failed.Count > 0 && last.Kind != check.NoVerdict) {
			t.Errorf("%s: verdict breaks the rule (failed %d): %v", file, s.failed.Count, verdict)
		}
	}
}

// commonNames are names a note could invent: the lesson's bidders and
// clients, and the sessions of the recorded runs.
var commonNames = []string{"alice", "bob", "carol", "dave", "slow", "fast", "slow_client", "fast_client",
	"main", "w1", "w2", "w3", "worker", "client", "A", "B"}

var word = regexp.MustCompile(`[A-Za-z0-9_]+`)

// TestNoInventedNames runs every recorded run with its sessions renamed
// (so that no text can depend on a particular name winning) and checks
// that each note is attributed to one of the run's sessions, and that no
// note or verdict names anybody the events do not: once the arguments and
// the values the server showed are taken out of a text, none of the
// common names is left in it.
func TestNoInventedNames(t *testing.T) {
	for _, file := range eventFiles(t) {
		s := loadScript(t, file)
		rename := map[string]string{}
		for i, name := range s.sessions() {
			rename[name] = fmt.Sprintf("peer%d", i+1)
		}
		var known []string // every string the events carry, longest first
		for i, st := range s.steps {
			switch {
			case st.sending != nil:
				s.steps[i].sending = append([]string{rename[st.sending[0]]}, st.sending[1:]...)
				known = append(known, st.sending[1:]...)
			case st.isEvent():
				s.steps[i].event.Session = rename[st.event.Session]
				known = append(known, st.event.Args...)
				known = append(known, st.event.Reply.Str)
				for _, ks := range append(slices.Clone(st.event.Before), st.event.After...) {
					known = append(known, ks.Key, ks.Value)
				}
			}
		}
		known = append(known, slices.Collect(maps.Values(rename))...)
		for _, k := range known {
			known = append(known, resp.Printable(k)) // as the text shows it
		}
		sort.Slice(known, func(i, j int) bool { return len(known[i]) > len(known[j]) })
		notes, verdict := s.run()
		var texts []string
		for _, n := range notes {
			if !slices.Contains(slices.Collect(maps.Values(rename)), n.note.Session) {
				t.Errorf("%s: note attributed to %q, not a session of the run: %s", file, n.note.Session, n.note.Text)
			}
			texts = append(texts, n.note.Text)
		}
		for _, f := range verdict {
			texts = append(texts, f.Text)
		}
		for _, text := range texts {
			rest := text
			for _, k := range known {
				if k != "" {
					rest = strings.ReplaceAll(rest, k, " ")
				}
			}
			for _, w := range word.FindAllString(rest, -1) {
				if slices.Contains(commonNames, w) {
					t.Errorf("%s: %q names %q, which no event of the run does", file, text, w)
				}
			}
		}
	}
}

// TestNotesNameTheirSession checks, on the runs as recorded, that every
// note is attributed to a session of the run.
func TestNotesNameTheirSession(t *testing.T) {
	for _, file := range eventFiles(t) {
		s := loadScript(t, file)
		sessions := s.sessions()
		notes, _ := s.run()
		for _, n := range notes {
			if !slices.Contains(sessions, n.note.Session) {
				t.Errorf("%s: note attributed to %q, not one of %q: %s", file, n.note.Session, sessions, n.note.Text)
			}
		}
	}
}

// TestFencedWrite checks that the fencing check is known by its text
// (EVAL) and by its SHA1 in any case (EVALSHA), and nothing else is: a
// compare-and-delete on the same keys is judged as a release attempt.
func TestFencedWrite(t *testing.T) {
	const sha = "b1cea259c08b385346e577b3b60c86b011297d59" // sha1 of scripts.FencedBook, as SCRIPT LOAD answers
	refused := check.Event{Session: "alice", Reply: check.Reply{Int: -1, IsInt: true},
		Before: []check.KeyState{{Key: "lock:r:fence:last", Exists: true, Value: "2", PTTL: -1}},
		After:  []check.KeyState{{Key: "lock:r:fence:last", Exists: true, Value: "2", PTTL: -1}}}
	tests := []struct {
		name   string
		script []string
		want   string
	}{
		{"EVALSHA", []string{"EVALSHA", sha}, "STALE WRITE REFUSED: alice's token 1 is older than 2, the newest the resource accepted"},
		{"EVALSHA upper case", []string{"evalsha", strings.ToUpper(sha)}, "STALE WRITE REFUSED: alice's token 1 is older than 2, the newest the resource accepted"},
		{"EVAL", []string{"EVAL", scripts.FencedBook.Body}, "STALE WRITE REFUSED: alice's token 1 is older than 2, the newest the resource accepted"},
		{"another script", []string{"EVAL", releaseScript}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := check.New(runStart)
			a.Observe(check.Event{Session: "main", Args: []string{"DEL", "lock:r:fence:last"}, Reply: check.Reply{Int: 1, IsInt: true},
				Before: []check.KeyState{{Key: "lock:r:fence:last", Exists: true, Value: "2", PTTL: -1}}})
			e := refused
			e.Args = append(tt.script, "2", "room:r", "lock:r:fence:last", "1", "alice", "1")
			var got []string
			for _, n := range a.Observe(e) {
				got = append(got, n.Text)
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("notes %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLessonReleaseJudged: the compare-and-delete is judged by what it did
// to the lock, so the lab's (scripts.Release) and the lesson's, pasted on
// several lines as its seeds print it, are each a release of one's own
// lock, or a kept lock when the token is another's.
func TestLessonReleaseJudged(t *testing.T) {
	const seeds = "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nelse\n  return 0\nend"
	held := check.KeyState{Key: "lock:demo", Exists: true, Value: "my-token", PTTL: 5000}
	for _, body := range []string{scripts.Release.Body, seeds} {
		for _, tt := range []struct {
			token string
			after check.KeyState
			reply int64
			want  string
		}{
			{"my-token", check.KeyState{Key: "lock:demo"}, 1, "released: main deleted its own lock on lock:demo"},
			{"wrong-token", held, 0, "safe: token mismatch (wrong-token is not my-token)"},
		} {
			a := check.New(runStart)
			a.Observe(check.Event{Session: "main", Args: []string{"SET", "lock:demo", "my-token", "PX", "5000", "NX"},
				Reply: check.Reply{Str: "OK"}, After: []check.KeyState{held}})
			notes := a.Observe(check.Event{Session: "main", Args: []string{"EVAL", body, "1", "lock:demo", tt.token},
				Reply: check.Reply{Int: tt.reply, IsInt: true}, Before: []check.KeyState{held}, After: []check.KeyState{tt.after}})
			var got []string
			for _, n := range notes {
				got = append(got, n.Text)
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tt.want) {
				t.Errorf("EVAL %q with %s: notes %q, want one starting %q", body, tt.token, got, tt.want)
			}
		}
	}
}
