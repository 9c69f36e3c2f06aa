package lockargs

import (
	"strconv"
	"strings"
	"time"
)

// IsSetNX reports whether args is a SET with NX, or a SETNX (a lock
// acquisition), and returns the key, the token and the TTL asked for (0
// when none).
func IsSetNX(args []string) (key, token string, ttl time.Duration, ok bool) {
	if len(args) == 3 && strings.ToUpper(args[0]) == "SETNX" {
		return args[1], args[2], 0, true
	}
	if len(args) < 4 || strings.ToUpper(args[0]) != "SET" {
		return "", "", 0, false
	}
	for i := 3; i < len(args); i++ {
		switch strings.ToUpper(args[i]) {
		case "NX":
			ok = true
		case "PX", "EX":
			if i+1 < len(args) {
				ttl = parseTTL(args[i], args[i+1])
			}
		}
	}
	return args[1], args[2], ttl, ok
}

func parseTTL(unit, n string) time.Duration {
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v < 0 {
		return 0
	}
	if strings.ToUpper(unit) == "EX" {
		return time.Duration(v) * time.Second
	}
	return time.Duration(v) * time.Millisecond
}

// HasGet reports whether a SET has the GET option (Redis 7: it answers
// the old value, nil when there was none).
func HasGet(args []string) bool {
	if strings.ToUpper(args[0]) != "SET" {
		return false
	}
	for _, a := range args[3:] {
		if strings.ToUpper(a) == "GET" {
			return true
		}
	}
	return false
}

// EvalKeys returns the keys an EVAL or EVALSHA names (KEYS[1] ...), and
// its first ARGV.
func EvalKeys(args []string) (keys []string, argv1 string, ok bool) {
	if len(args) == 0 {
		return nil, "", false
	}
	name := strings.ToUpper(args[0])
	if (name != "EVAL" && name != "EVALSHA" && name != "EVAL_RO" && name != "EVALSHA_RO") || len(args) < 3 {
		return nil, "", false
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 0 || 3+n > len(args) {
		return nil, "", false
	}
	keys = args[3 : 3+n]
	if len(args) > 3+n {
		argv1 = args[3+n]
	}
	return keys, argv1, true
}
