package gaps

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/server"
)

// TestEmbedded: the embedded Redis's gaps, as the issue found them (and
// COMMAND's subcommands, which miniredis ignored, answering its whole
// table), and what it has; and for every gap Embedded names, the embedded Redis really
// refuses the command (unknown command, unknown subcommand, not
// supported), so that the hint under its error and completion agree.
func TestEmbedded(t *testing.T) {
	for _, name := range []string{"CLIENT LIST", "CLIENT KILL", "CLIENT PAUSE", "CONFIG GET", "CONFIG", "DEBUG", "OBJECT ENCODING", "MONITOR", "client list", "COMMAND COUNT", "COMMAND INFO", "COMMAND DOCS"} {
		if !Embedded(name) {
			t.Errorf("Embedded(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"GET", "SET", "EVAL", "CLIENT", "CLIENT SETNAME", "SCRIPT LOAD", "OBJECT IDLETIME", "SUBSCRIBE", "NOSUCHCOMMAND"} {
		if Embedded(name) {
			t.Errorf("Embedded(%q) = true, want false", name)
		}
	}
	e, err := server.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c := redis.NewClient(&redis.Options{Addr: e.Addr(), Protocol: 2, DisableIdentity: true})
	defer c.Close()
	for _, cmd := range commands.All() {
		if !Embedded(cmd.Name) {
			continue
		}
		args := []any{}
		for _, w := range strings.Fields(cmd.Name) {
			args = append(args, w)
		}
		_, err := c.Do(context.Background(), args...).Result()
		if err == nil || !strings.Contains(err.Error(), "unknown") && !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%s: the embedded Redis answers %v, yet Embedded says it lacks it", cmd.Name, err)
		}
	}
}
