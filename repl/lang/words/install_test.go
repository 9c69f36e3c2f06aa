package words_test

import (
	"github.com/locklab/locklab/repl/explore"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/words"
)

// Classify is tested on the table as the program installs it.
func init() { words.Install(lab.Words(), explore.Words(explore.WordOptions{})) }
