package cliflags

import (
	"errors"
	"strings"
)

// DockerExecFlags reads docker exec's options and says whether -t was one.
func DockerExecFlags(args []string) (tty bool, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--tty" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 't')):
			tty = true
		case a == "-e" || a == "--env" || a == "-u" || a == "--user" || a == "-w" || a == "--workdir":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return tty, args[i:], nil
		}
	}
	return tty, nil, errors.New("no container given")
}
