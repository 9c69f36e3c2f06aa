package term

import (
	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/words"
)

// Completion offers every word the program installs.
func init() { words.Install(lab.Words(), explore.Words(explore.WordOptions{})) }
