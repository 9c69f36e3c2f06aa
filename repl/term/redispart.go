package term

import (
	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/lang/words"
)

// RedisPart is the Redis command of a line, past the prefixes that come
// before one: `@NAME`, `redis-cli [flags]`, `docker exec [opts] CTR
// redis-cli [flags]`.
func RedisPart(fields []string) []string {
	for len(fields) > 0 {
		switch c := words.Classify(fields, words.Lang); {
		case c.Kind == words.Session:
			fields = fields[1:]
		case c.Name == "redis-cli":
			fields = skipCLIFlags(fields[1:])
		case c.Name == "docker" && len(fields) >= 4 && fields[1] == "exec":
			_, rest, _ := cliflags.DockerExecFlags(fields[2:])
			fields = rest
			if len(fields) > 0 {
				fields = fields[1:] // the container
			}
		default:
			return fields
		}
	}
	return fields
}

func skipCLIFlags(fields []string) []string {
	var o cliflags.Options
	for len(fields) > 0 && cliflags.IsFlag(fields[0]) {
		n, err := cliflags.ParseFlag(&o, fields)
		if err != nil || n == 0 {
			return fields[1:]
		}
		fields = fields[n:]
	}
	return fields
}
