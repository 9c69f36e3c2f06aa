package load

import "github.com/locklab/locklab/repl/lab/scripts"

// allScripts are the scripts a run loads before it starts (see
// runScript): break mode's plain release, the others' compare-and-delete,
// extend mode's watchdog, and fenced mode's acquisition and write.
var allScripts = []*scripts.Script{scripts.BlindRelease, scripts.ReleaseTold, scripts.Extend, scripts.FencedAcquire, scripts.FencedSet}
