package record

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/timeline"
)

// TestTimelineHidesSecrets: the timeline shows neither a password sent
// nor one the server's reply quotes back (an unknown command's error).
func TestTimelineHidesSecrets(t *testing.T) {
	r := New()
	now := time.Now()
	args := []string{"CONFIG", "SET", "requirepass", "pw-1"}
	reply := resp.Reply{Kind: resp.Error, Str: "ERR unknown command `CONFIG`, with args beginning with: `SET`, `requirepass`, `pw-1`, "}
	r.Observe(session.Event{Session: session.Main, Args: args, Reply: reply, Start: now, End: now}, check.Event{Session: session.Main, Args: args}, nil, func([]check.Note) {})
	for _, e := range r.Commands() {
		if shown := strings.Join(e.Args, " ") + " " + e.Reply; strings.Contains(shown, "pw-1") {
			t.Errorf("the timeline shows %q", shown)
		}
	}
}

// TestRecordIsARing: a run longer than MaxEvents keeps its last commands
// for the picture, counts the ones it dropped, and the picture says so.
func TestRecordIsARing(t *testing.T) {
	r := New()
	now := time.Now()
	total := MaxEvents + MaxEvents/2 + 7
	send := func(args ...string) {
		reply := resp.Reply{Kind: resp.Int, Int: 1}
		r.Observe(session.Event{Session: session.Main, Args: args, Reply: reply, Start: now, End: now},
			check.Event{Session: session.Main, Args: args, Reply: check.Reply{Int: 1, IsInt: true}, Start: now, End: now}, nil, func([]check.Note) {})
	}
	for i := range total {
		send("INCR", "counter", strings.Repeat("x", i%3))
	}
	kept := r.Commands()
	if len(kept) > MaxEvents || len(kept)+r.Dropped() != total {
		t.Fatalf("%d commands: kept %d, dropped %d (at most %d kept, none lost from the count)", total, len(kept), r.Dropped(), MaxEvents)
	}
	if kept[0].Seq != r.Dropped()+1 || kept[len(kept)-1].Seq != total {
		t.Errorf("kept Seq %d..%d, want %d..%d: the last commands, in order", kept[0].Seq, kept[len(kept)-1].Seq, r.Dropped()+1, total)
	}
	tl := r.Timeline(nil)
	if tl.Dropped != r.Dropped() {
		t.Errorf("the timeline says %d dropped, the record %d", tl.Dropped, r.Dropped())
	}
	if line := timeline.DroppedLine(tl); !strings.Contains(line, fmt.Sprintf("first %d commands are not drawn", r.Dropped())) {
		t.Errorf("the picture's first line: %q", line)
	}
	r.Reset()
	if r.Dropped() != 0 || len(r.Commands()) != 0 {
		t.Errorf("a new run starts with %d kept and %d dropped", len(r.Commands()), r.Dropped())
	}
}
