package commands

import (
	"strings"
	"testing"
)

// TestStreamsBlocks: the table says which commands stream (the server
// keeps sending after them) and which may block, in any case; a command
// newer than the table's server (WAITAOF) is known by name.
func TestStreamsBlocks(t *testing.T) {
	for _, c := range []struct {
		words           string
		streams, blocks bool
	}{
		{"SUBSCRIBE ch", true, false}, {"subscribe ch", true, false}, {"Psubscribe n*", true, false},
		{"SSUBSCRIBE ch", true, false}, {"monitor", true, false},
		{"UNSUBSCRIBE", false, false}, {"PUBLISH ch m", false, false}, {"PUBSUB CHANNELS", false, false},
		{"BLPOP q 0", false, true}, {"bzpopmin z 1", false, true}, {"BLMOVE a b LEFT RIGHT 0", false, true},
		{"XREAD BLOCK 0 STREAMS s $", false, true}, {"xreadgroup GROUP g c STREAMS s >", false, true},
		{"WAIT 1 0", false, true}, {"wait 1 0", false, true}, {"WAITAOF 1 0 0", false, true}, {"waitaof 1 0 0", false, true},
		{"GET a", false, false}, {"CLIENT PAUSE 10", false, false}, {"NOSUCH x", false, false}, {"", false, false},
	} {
		args := strings.Fields(c.words)
		if got := Streams(args); got != c.streams {
			t.Errorf("Streams(%q) = %v, want %v", c.words, got, c.streams)
		}
		if got := Blocks(args); got != c.blocks {
			t.Errorf("Blocks(%q) = %v, want %v", c.words, got, c.blocks)
		}
	}
	// Every command the server flags blocking blocks; exactly four stream.
	streams := 0
	for _, c := range All() {
		if c.Is(FlagBlocking) && !c.Blocks {
			t.Errorf("%s: flagged blocking, Blocks false", c.Name)
		}
		if c.Streams {
			streams++
		}
	}
	if streams != 4 {
		t.Errorf("%d commands stream, want 4 (SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE, MONITOR)", streams)
	}
}
