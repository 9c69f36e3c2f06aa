package jobs

import (
	"crypto/rand"
	"strings"
	"sync"
)

// laneDevice is the prefix of the pseudo-files a job's output is
// redirected to (bindJob): the shell's open handler turns laneDevice+NAME
// into session NAME's lines, and laneDevice+NAME+"/err" into its stderr.
// No script may name one, or it could write into another session's lines
// (`echo forged > /dev/locklab/bob` did). A NUL byte alone does not keep
// a script out: a word can hold one (printf '\000' | read -r w, or a
// Redis reply read into a variable). So the prefix also holds secret.
var laneDevice = sync.OnceValue(func() string { return "\x00locklab-" + secret() + "/" })

// secret is drawn the first time a lane or hook is named (not as locklab
// starts: one Redis command given as arguments never needs it), and
// nothing shows it: a job's rewrite writes it only in the targets of
// redirections, which neither a trace (set -x) nor an error message
// shows.
var secret = sync.OnceValue(rand.Text)

// SessionFile parses a job's lane, laneDevice+NAME[/err]; any other path,
// /dev/locklab/NAME among them, is no lane.
func SessionFile(path string) (name string, stderr, ok bool) {
	rest, found := strings.CutPrefix(path, laneDevice())
	if !found {
		return "", false, false
	}
	name, stderr = strings.CutSuffix(rest, "/err")
	if name == "" || name == "/err" {
		name = "job" // `book $w &` with $w empty
	}
	return name, stderr, true
}
