package resp

import "strings"

// rawOnTTY lists, by command name, the subcommands redis-cli 7 prints raw
// even on a terminal (cliSendCommand in src/redis-cli.c), and the argument
// counts it does so for: 0 means any count. A list, not a map: nothing to
// build at start-up.
var rawOnTTY = []struct {
	cmd  string
	sub  string // "" for the command itself, whatever follows it
	argc int
}{
	{"info", "", 0},
	{"lolwut", "", 0},
	{"debug", "htstats", 0}, {"debug", "htstats-key", 0}, {"debug", "client-eviction", 0},
	{"memory", "malloc-stats", 0}, {"memory", "doctor", 0},
	{"cluster", "nodes", 2}, {"cluster", "info", 2},
	{"client", "list", 0}, {"client", "info", 0},
	{"latency", "graph", 3}, {"latency", "doctor", 2},
	{"proxy", "info", 0},
}

// RawOnTTY reports whether redis-cli 7 prints the reply to the command
// args raw even on a terminal: INFO, LOLWUT, CLIENT LIST and CLIENT INFO,
// CLUSTER NODES and CLUSTER INFO (with no further arguments), MEMORY
// DOCTOR and MEMORY MALLOC-STATS, LATENCY DOCTOR (with no further
// arguments), LATENCY GRAPH <event>, DEBUG HTSTATS, DEBUG HTSTATS-KEY,
// DEBUG CLIENT-EVICTION and PROXY INFO. Names are matched without regard
// to case. redis-cli adds no newline after these replies, in either mode;
// Format does all that.
func RawOnTTY(args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := strings.ToLower(args[0])
	for _, c := range rawOnTTY {
		switch {
		case c.cmd != name:
			continue
		case c.sub == "":
			return true
		case len(args) < 2 || !strings.EqualFold(args[1], c.sub):
			continue
		case c.argc == 0 || c.argc == len(args):
			return true
		}
	}
	return false
}
