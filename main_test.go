package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/server"
)

var update = flag.Bool("u", false, "update testscript files with the actual output")

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) != "" {
		os.Exit(sandboxProbe()) // a child of TestSandboxEnforced
	}
	// The end-to-end scripts mostly wait (on sleeps, TTLs and their own
	// redis-servers), so more of them at once than the CPUs finish sooner;
	// -parallel on the command line still decides.
	flag.Set("test.parallel", "6")
	testscript.Main(m, map[string]func(){
		"locklab": func() {
			ownProcess = true // a process of its own: it restricts itself as the program does
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScript runs the end-to-end scripts in testdata/script. Each script
// gets its own real redis-server, whose port is $REDIS_PORT (run
// `locklab -p $REDIS_PORT ...` against it); without -p, locklab uses its
// embedded Redis, fresh for each run. $SCRIPTS is the repository's
// scripts/ directory.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup:               startRedis,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"tty": cmdTTY, "same-verdict": cmdSameVerdict},
		Condition:           landlockCondition,
	})
}

func startRedis(env *testscript.Env) error {
	scripts, err := filepath.Abs("scripts")
	if err != nil {
		return err
	}
	env.Setenv("SCRIPTS", scripts) // the repository's scripts/, for the README's examples
	dir := env.WorkDir + "/.redis"
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	p, err := server.StartProcess(context.Background(), dir)
	if err == server.ErrNoRedisServer && !redistest.InCI() {
		env.Setenv("REDIS_PORT", "0") // scripts needing it use [!exec:redis-server] skip
		return nil
	}
	if err != nil {
		return err
	}
	env.Defer(p.Close)
	env.Setenv("REDIS_PORT", strconv.Itoa(p.Port))
	env.Setenv("NO_COLOR", "")
	env.Setenv("LOCKLAB_HISTFILE", env.WorkDir+"/.history")
	return nil
}
