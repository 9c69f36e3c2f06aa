package capture_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lab/capture"
)

// TestStartWhereNothingCanBeWritten: a recording that cannot write its
// file does not begin (before: it stayed "recording" into it, and every
// later `record FILE` was refused as already recording).
func TestStartWhereNothingCanBeWritten(t *testing.T) {
	var c capture.Capture
	bad := filepath.Join(t.TempDir(), "no-such-folder", "x.lab")
	if err := c.Start(bad); err == nil || !strings.HasPrefix(err.Error(), "record: ") {
		t.Fatalf("Start(%s) = %v, want a record: error", bad, err)
	}
	if f := c.Recording(); f != "" {
		t.Fatalf("still recording into %s", f)
	}
	good := filepath.Join(t.TempDir(), "x.lab")
	if err := c.Start(good); err != nil {
		t.Fatalf("a second record into a writable file: %v", err)
	}
}
