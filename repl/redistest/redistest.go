// Package redistest gives tests a Redis to talk to: the embedded one, or a
// real redis-server started on a free port and stopped when the test ends.
//
// Without redis-server on PATH, real-server tests are skipped on a
// developer's machine but fail under CI=true: in CI they must run.
package redistest

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/locklab/locklab/repl/server"
)

// Embedded starts an embedded Redis for the test and returns its address.
func Embedded(t testing.TB) string {
	t.Helper()
	e, err := server.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e.Addr()
}

// Real starts a real redis-server for the test and returns its address.
func Real(t testing.TB, extra ...string) string {
	t.Helper()
	p, err := server.StartProcess(context.Background(), t.TempDir(), extra...)
	if errors.Is(err, server.ErrNoRedisServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p.Addr()
}

// Servers returns the two kinds of server a lab must behave the same on,
// by name, so a test can run once per kind.
func Servers(t testing.TB) map[string]string {
	t.Helper()
	return map[string]string{"embedded": Embedded(t), "real": Real(t)}
}

// InCI reports whether the tests run in CI, where nothing may be skipped.
func InCI() bool { return os.Getenv("CI") == "true" }
