package sandbox

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// EnvOff names the variable that turns the sandbox off (any non-empty
// value but "0").
const EnvOff = "LOCKLAB_NO_LANDLOCK"

// Access is what a rule allows below its path (a folder and all in it,
// or one file).
type Access int

const (
	Read      Access = iota // read files, list folders
	ReadExec                // ... and run the programs
	ReadWrite               // read, write, create and remove
	Create                  // make new files and write files; no reading, listing or removing
	Device                  // read, write and ioctl (terminals, /dev/null)
)

var accessNames = [...]string{"read", "read+exec", "read-write", "create+write", "device"}

func (a Access) String() string { return accessNames[a] }

// Rule is one path a restricted process may still use, and why.
type Rule struct {
	Path   string
	Access Access
	Why    string
}

// Policy is every path a restricted process may use; nothing else of
// the file system can be opened, listed, run, made or removed.
type Policy []Rule

// Status is what Restrict did.
type Status struct {
	ABI      int    // the kernel's Landlock ABI version, 0 without Landlock
	Enforced bool   // the rules hold for this process and its children
	Reason   string // why nothing was enforced
	Rules    Policy // the rules enforced (their paths exist)
	Skipped  Policy // the rules whose paths do not exist
}

// String is the status in one line, for debug output and tests.
func (s Status) String() string {
	if !s.Enforced {
		return "Landlock: not enforced: " + s.Reason
	}
	return fmt.Sprintf("Landlock: enforced (ABI %d), %d rules", s.ABI, len(s.Rules))
}

// Report is the status and, when enforced, each rule on a line.
func (s Status) Report() string {
	var b strings.Builder
	b.WriteString(s.String() + "\n")
	for _, r := range s.Rules {
		fmt.Fprintf(&b, "  %-12s %s (%s)\n", r.Access, r.Path, r.Why)
	}
	return b.String()
}

// Off reports whether the environment turned the sandbox off.
func Off() bool {
	v := os.Getenv(EnvOff)
	return v != "" && v != "0"
}

// Apply restricts the process to what run needs, unless the
// environment turned the sandbox off.
func Apply(run Run) (Status, error) {
	if Off() {
		return Status{Reason: EnvOff + " is set"}, nil
	}
	warmUp()
	return Restrict(For(run))
}

// warmUp loads what the Go runtime would otherwise read from files the
// first time it is used, after the restriction: the local time zone
// ($TZ may name any file).
func warmUp() {
	_ = time.Local.String()
}
