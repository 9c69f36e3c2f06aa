package explore

import (
	"strings"
	"sync"

	"github.com/locklab/locklab/repl/lang/shell"
)

// preparedScripts are the scripts searches read, by their text, name,
// arguments and folder, each as its first run left it (shell.Prepared):
// a later search of the same script (a benchmark's, `locklab test`
// again) reads nothing. At most maxPrepared are kept.
var preparedScripts = struct {
	sync.Mutex
	m map[string]*shell.Prepared
}{m: map[string]*shell.Prepared{}}

const maxPrepared = 64

// prepared is sc's entry in preparedScripts, new and empty the first
// time.
func prepared(sc Script) *shell.Prepared {
	key := strings.Join(append([]string{sc.Name, sc.Dir, string(sc.Text)}, sc.Args...), "\x00")
	preparedScripts.Lock()
	defer preparedScripts.Unlock()
	p, ok := preparedScripts.m[key]
	if !ok {
		if len(preparedScripts.m) >= maxPrepared {
			clear(preparedScripts.m)
		}
		p = &shell.Prepared{}
		preparedScripts.m[key] = p
	}
	return p
}
