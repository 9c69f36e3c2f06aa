package session

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// go-redis logs dial failures and pool events on its own; locklab says
// what went wrong in redis-cli's words instead (see Describe), so its log
// is silenced.
func init() { redis.SetLogger(quiet{}) }

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
