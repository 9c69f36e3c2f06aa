package session

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

var silenced sync.Once

// SilenceDriverLog turns off go-redis's own log (dial failures, pool
// events), which is global to the process: locklab says what went wrong
// in redis-cli's words instead (see Describe). The program calls it at its
// start; later calls do nothing (go-redis's logger is a plain variable,
// which a second write would race with its readers).
func SilenceDriverLog() { silenced.Do(func() { redis.SetLogger(quiet{}) }) }

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
