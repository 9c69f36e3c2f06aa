package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestBatchable: a command that streams or may block (the command
// table's Streams and Blocks) is sent alone however it is spelt: quoted,
// in lower case, or after a repeat count (which is no plain command);
// so are those that may end the connection. Plain commands share a
// pipeline.
func TestBatchable(t *testing.T) {
	for line, want := range map[string]bool{
		"GET a": true, `"get" a`: true, "SET a 1": true, "PUBLISH ch m": true,
		"SUBSCRIBE ch": false, "subscribe ch": false, `"SUBSCRIBE" ch`: false, "'psubscribe' n*": false, "3 SUBSCRIBE ch": false,
		"monitor": false, `"MONITOR"`: false, "2 MONITOR": false,
		"BLPOP q 0": false, "blpop q 0": false, `"BLPOP" q 0`: false, "3 BLPOP q 0": false, "xread BLOCK 0 STREAMS s $": false,
		"WAIT 1 0": false, "wait 1 0": false, "'WAITAOF' 1 0 0": false, "waitaof 1 0 0": false, "5 WAIT 1 0": false,
		"QUIT": false, "client reply off": false, "'reset'": false,
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if _, got := (*Shell)(nil).plainCommand(f.Stmts[0]); got != want {
			t.Errorf("%s: batched %v, want %v", line, got, want)
		}
	}
}
