package shell

import (
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/words"
)

// The shell's tests run the lesson's words, as the program installs them.
func init() { words.Install(lab.Words()) }
