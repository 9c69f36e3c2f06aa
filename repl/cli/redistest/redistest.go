// Package redistest gives tests a Redis to talk to: the embedded one, or a
// real redis-server started on a free port and stopped when the test ends,
// and a plain RESP connection ([Dial]) that shows replies exactly as the
// server sent them.
//
// Without redis-server (or another program a test needs, see
// [NeedProgram]), a test is skipped on a developer's machine but fails
// under CI=true: in CI it must run.
package redistest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/clock"
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

// InProcess starts an embedded Redis on the wall clock that listens on
// no port: its Dial opens in-memory connections (pipes), a
// session.Target's InProcess. A test inside a testing/synctest bubble
// starts it there: the bubble counts a goroutine blocked on a pipe as
// idle, on a socket not, so only with pipes does its fake time move while
// commands wait for their answers.
func InProcess(t testing.TB) *server.Embedded {
	t.Helper()
	e, err := server.StartInProcess(clock.Real{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// Real starts a real redis-server for the test and returns its address.
func Real(t testing.TB, extra ...string) string {
	t.Helper()
	p, err := server.StartProcess(context.Background(), t.TempDir(), extra...)
	SkipIfNoRedis(t, err)
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

// InCI reports whether the tests run in CI (CI=true), where nothing may
// be skipped.
func InCI() bool { return os.Getenv("CI") == "true" }

// SkipIfNoRedis skips the test when err says redis-server is not
// installed, except in CI, where the caller's check of err fails it.
func SkipIfNoRedis(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, server.ErrNoRedisServer) && !InCI() {
		t.Skip(err)
	}
}

// NeedProgram returns the path of the first of names found on PATH (a
// program and its other names, e.g. "chromium", "google-chrome"). Without
// any of them it skips the test, and in CI, which must install it, fails
// it.
func NeedProgram(t testing.TB, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if InCI() {
		t.Fatalf("%s is not on PATH: CI must install it (see .ci/run)", names[0])
	}
	t.Skipf("%s is not on PATH; install it to run this test (CI does)", names[0])
	return ""
}
